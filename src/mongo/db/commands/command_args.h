#pragma once
// Which fields each command accepts, declared once per command in one table (command_args.cpp)
// and checked by the dispatcher before the command runs. The rule: a command either does what
// an option asks or refuses it; it never accepts a field and ignores it.
//
//   - Generic arguments (MongoDB 7.0's generic_argument.idl: $db, lsid, maxTimeMS, comment,
//     readConcern, writeConcern, apiVersion, ...) pass on every command.
//   - A strict command (MongoDB parses it with an IDL struct that is strict) refuses any other
//     field with 40415 "BSON field '<struct>.<field>' is an unknown field." and a declared field
//     given twice with 40413 "BSON field '<struct>.<field>' is a duplicate field.", where
//     <struct> is the name MongoDB's parser reports (the command name, "FindCommandRequest"
//     for find). A declared field whose value asks for something this server cannot do (e.g.
//     validate's repair: true) is refused by the command with InvalidOptions (72).
//   - A lenient command is one MongoDB 7.0 itself parses leniently (hello's IDL says strict:
//     false; serverStatus, currentOp, getParameter read their other fields as section names,
//     filters or parameter names); the command reads what it knows.
//
// A command without an entry in the table accepts no field beyond the generic arguments
// (command_args_test.cpp checks that every registered command has one).
// Thread safety: the table is built before main() and only read afterwards.
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

class CommandArgs {
public:
    static CommandArgs strict(std::string structName, std::initializer_list<const char*> fields);
    static CommandArgs lenient(const char* why);

    // Checks the fields of body after the first (the command name). Throws as described above.
    void check(const BSONObj& body) const;

    bool isStrict() const { return _strict; }
    const std::string& structName() const { return _structName; }
    bool accepts(std::string_view field) const;  // declared (not unsupported) or generic

private:
    bool _strict = true;
    std::string _structName;
    std::vector<std::string> _fields;
};

// The declaration for a command, by its canonical name (Command::name(), aliases resolved);
// nullptr if the table has none.
const CommandArgs* findCommandArgs(std::string_view commandName);
// Every name in the table (for the test that compares it with the registered commands).
std::vector<std::string> commandArgsTableNames();

// MongoDB 7.0's generic arguments, accepted by every command.
bool isGenericArgument(std::string_view field);

// The same check for a sub-document MongoDB parses with a strict struct (a write statement, a
// cursor spec): path is the element path MongoDB reports, e.g. "update.updates" gives
// "BSON field 'update.updates.sort' is an unknown field.". Generic arguments get no pass here.
void checkStrictFields(const BSONObj& obj, std::string_view path, std::initializer_list<std::string_view> fields);

}  // namespace mongo
