// Parsing of $jsonSchema into the keyword nodes of json_schema_keywords.h, with MongoDB 7.0's
// checks, error codes and messages. Keywords are checked and compiled in MongoDB's order (see
// json_schema_nodes.h), so that the first error reported for a bad schema is MongoDB's.
#include <map>
#include <set>

#include "mongo/db/query/matcher_parse_util.h"
#include "mongo/db/query/schema/json_schema.h"
#include "mongo/db/query/schema/json_schema_keywords.h"
#include "mongo/db/update/decimal_arith.h"

namespace mongo {
namespace json_schema {
namespace {

thread_local bool tlParsingValidator = false;

const std::set<std::string, std::less<>>& knownKeywords() {
    static const std::set<std::string, std::less<>> k = {
        "additionalItems", "additionalProperties", "allOf", "anyOf", "bsonType", "dependencies", "description",
        "encrypt", "encryptMetadata", "enum", "exclusiveMaximum", "exclusiveMinimum", "items", "maxItems",
        "maxLength", "maxProperties", "maximum", "minItems", "minLength", "minProperties", "minimum",
        "multipleOf", "not", "oneOf", "pattern", "patternProperties", "properties", "required", "title",
        "type", "uniqueItems"};
    return k;
}

const std::set<std::string, std::less<>>& unsupportedKeywords() {
    static const std::set<std::string, std::less<>> k = {"$ref", "$schema", "default", "definitions", "format", "id"};
    return k;
}

std::string kw(std::string_view name) { return "$jsonSchema keyword '" + std::string(name) + "'"; }

bool jsonTypeFromAlias(const std::string& alias, BSONType* out) {
    static const std::pair<const char*, BSONType> kTypes[] = {
        {"array", Array}, {"boolean", Bool}, {"null", jstNULL}, {"object", Object}, {"string", String}};
    for (const auto& t : kTypes)
        if (alias == t.first) {
            *out = t.second;
            return true;
        }
    return false;
}

// type / bsonType: a string or an array of distinct strings naming at least one type.
TypeSet parseTypeSet(const BSONElement& e, bool bsonTypeAliases) {
    std::string_view name = e.fieldNameStringData();
    uassert(ErrorCodes::TypeMismatch, kw(name) + " must be either a string or an array of strings",
            e.type() == String || e.type() == Array);
    std::set<std::string> aliases;
    auto checkInteger = [](const std::string& a) {
        uassert(ErrorCodes::FailedToParse, "$jsonSchema type 'integer' is not currently supported.", a != "integer");
    };
    if (e.type() == String) {
        checkInteger(e.str());
        aliases.insert(e.str());
    } else {
        for (BSONElement a : e.Obj()) {
            uassert(ErrorCodes::TypeMismatch, kw(name) + " array elements must be strings", a.type() == String);
            checkInteger(a.str());
            uassert(ErrorCodes::FailedToParse, kw(name) + " has duplicate value: " + a.str(), aliases.insert(a.str()).second);
        }
    }
    TypeSet ts;
    for (const std::string& a : aliases) {
        if (a == "number") {
            ts.allNumbers = true;
            continue;
        }
        BSONType t;
        bool known = bsonTypeAliases ? typeFromAlias(a, &t) : jsonTypeFromAlias(a, &t);
        uassert(ErrorCodes::BadValue, "Unknown type name alias: " + a, known);
        ts.types.insert(t);
    }
    uassert(ErrorCodes::FailedToParse, kw(name) + " must name at least one type", ts.allNumbers || !ts.types.empty());
    return ts;
}

long long parseNonNegativeLong(const BSONElement& e) { return uassertStatusOK(parseIntegerElementToNonNegativeLong(e)); }

bool isPositiveNumber(const BSONElement& e) {
    if (e.type() == NumberDecimal) {
        Decimal128Bytes bytes;
        std::copy(e.decimal128Bytes(), e.decimal128Bytes() + 16, bytes.begin());
        std::string s = decimalToString(bytes);
        if (!s.empty() && s[0] == '-') return false;
        return s.find_first_of("123456789") != std::string::npos || s.find("NaN") != std::string::npos ||
            s.find("Inf") != std::string::npos;
    }
    double d = e.numberDouble();
    return !(d <= 0);  // NaN is accepted, as MongoDB's decimal check accepts it
}

// The fields of the EncryptionInfo / EncryptionMetadata IDL structs.
std::optional<TypeSet> parseEncryptionFields(const BSONObj& o, const char* structName, bool allowBsonType) {
    std::optional<TypeSet> types;
    for (BSONElement f : o) {
        std::string_view n = f.fieldNameStringData();
        std::string field = std::string("BSON field '") + structName + "." + std::string(n) + "'";
        if (n == "bsonType" && allowBsonType) {
            uassert(ErrorCodes::TypeMismatch, field + " is the wrong type '" + typeName(f.type()) + "', expected types '[string, array]'",
                    f.type() == String || f.type() == Array);
            types = parseTypeSet(f, true);
        } else if (n == "algorithm") {
            uassert(ErrorCodes::TypeMismatch, field + " is the wrong type '" + typeName(f.type()) + "', expected type 'string'",
                    f.type() == String);
            std::string a = f.str();
            uassert(ErrorCodes::BadValue,
                    "Enumeration value '" + a + "' for field '" + structName + ".algorithm' is not a valid value.",
                    a == "AEAD_AES_256_CBC_HMAC_SHA_512-Deterministic" || a == "AEAD_AES_256_CBC_HMAC_SHA_512-Random");
        } else if (n == "keyId") {
            if (f.type() == String) {
                uassert(ErrorCodes::FailedToParse, "JSON Pointer must start with a '/'", f.str().rfind('/', 0) == 0);
            } else {
                uassert(ErrorCodes::TypeMismatch, field + " is the wrong type '" + typeName(f.type()) + "', expected types '[string, array]'",
                        f.type() == Array);
                for (BSONElement id : f.Obj()) {
                    int len = 0, subtype = 0;
                    bool uuid = id.type() == BinData && (id.binData(&len, &subtype), subtype == 4 && len == 16);
                    uassert(ErrorCodes::TypeMismatch, field + " must be an array of UUIDs", uuid);
                }
            }
        } else {
            uasserted(ErrorCodes::Location40415, field + " is an unknown field.");
        }
    }
    return types;
}

class SchemaParser {
public:
    std::unique_ptr<Schema> parse(const BSONObj& obj, bool isRoot);

private:
    BSONElement get(std::string_view name) const {
        auto it = _kw.find(std::string(name));
        return it == _kw.end() ? BSONElement() : it->second;
    }
    void parseScalarKeywords(Schema* s, bool isRoot);
    void parseArrayKeywords(Schema* s, bool isRoot);
    void parseEncryptionKeywords(Schema* s, bool isRoot);
    void parseObjectKeywords(Schema* s, bool isRoot);
    void parseLogicalKeywords(Schema* s, bool isRoot);
    std::unique_ptr<Keyword> parseDependencies(const BSONElement& e, bool isRoot);

    std::map<std::string, BSONElement> _kw;
};

std::unique_ptr<Schema> SchemaParser::parse(const BSONObj& obj, bool isRoot) {
    for (BSONElement e : obj) {
        std::string_view name = e.fieldNameStringData();
        if (!knownKeywords().count(name)) {
            uassert(ErrorCodes::FailedToParse, kw(name) + " is not currently supported", !unsupportedKeywords().count(name));
            uasserted(ErrorCodes::FailedToParse, "Unknown $jsonSchema keyword: " + std::string(name));
        }
        uassert(ErrorCodes::FailedToParse, "Duplicate $jsonSchema keyword: " + std::string(name),
                _kw.emplace(std::string(name), e).second);
    }
    auto schema = std::make_unique<Schema>();
    for (const char* meta : {"description", "title"}) {
        BSONElement m = get(meta);
        uassert(ErrorCodes::TypeMismatch, kw(meta) + " must be of type string", m.eoo() || m.type() == String);
    }
    schema->title = get("title");
    schema->description = get("description");

    BSONElement type = get("type"), bsonType = get("bsonType"), encrypt = get("encrypt");
    uassert(ErrorCodes::FailedToParse, "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'",
            type.eoo() || bsonType.eoo());
    for (const BSONElement& t : {type, bsonType})
        if (!t.eoo() && !encrypt.eoo())
            uasserted(ErrorCodes::FailedToParse, "$jsonSchema keyword 'encrypt' cannot be used in conjunction with '" +
                                                     std::string(t.fieldNameStringData()) +
                                                     "', 'encrypt' implies type 'bsonType::BinData'");
    BSONElement typeElt = !type.eoo() ? type : bsonType;
    std::optional<TypeSet> types;
    if (!typeElt.eoo()) types = parseTypeSet(typeElt, typeElt.fieldNameStringData() == "bsonType");

    parseScalarKeywords(schema.get(), isRoot);
    parseArrayKeywords(schema.get(), isRoot);
    parseEncryptionKeywords(schema.get(), isRoot);
    parseObjectKeywords(schema.get(), isRoot);
    parseLogicalKeywords(schema.get(), isRoot);

    if (types) {
        if (isRoot) {
            // Only documents are stored: a top-level schema that excludes objects matches none.
            if (!types->contains(Object)) {
                BSONObjBuilder spec, d;
                spec.append("$jsonSchema", obj);
                d.append("operatorName", "$jsonSchema");
                d.append("specifiedAs", spec.obj());
                d.append("reason", "expression always evaluates to false");
                schema->matchesNothingDetail = d.obj();
                schema->keywords.clear();
                schema->keywords.push_back(std::make_unique<AlwaysFalseKeyword>(schema->matchesNothingDetail));
            }
        } else {
            schema->keywords.push_back(std::make_unique<TypeKeyword>(typeElt, std::move(*types)));
        }
    }
    return schema;
}

void SchemaParser::parseScalarKeywords(Schema* s, bool isRoot) {
    // At the top level these keywords are checked but constrain nothing (it is a document).
    auto add = [&](std::unique_ptr<Keyword> k) {
        if (!isRoot) s->keywords.push_back(std::move(k));
    };
    if (BSONElement p = get("pattern"); !p.eoo()) {
        uassert(ErrorCodes::TypeMismatch, kw("pattern") + " must be a string", p.type() == String);
        if (!isRoot) add(std::make_unique<PatternKeyword>(p));
    }
    for (const char* name : {"maxLength", "minLength"}) {
        if (BSONElement e = get(name); !e.eoo()) {
            long long limit = parseNonNegativeLong(e);
            add(std::make_unique<StringLengthKeyword>(e, name[1] == 'a', limit));
        }
    }
    if (BSONElement m = get("multipleOf"); !m.eoo()) {
        uassert(ErrorCodes::TypeMismatch, kw("multipleOf") + " must be a number", m.isNumber());
        uassert(ErrorCodes::FailedToParse, kw("multipleOf") + " must have a positive value", isPositiveNumber(m));
        add(std::make_unique<MultipleOfKeyword>(m));
    }
    for (bool isMax : {true, false}) {
        const char* bound = isMax ? "maximum" : "minimum";
        const char* excl = isMax ? "exclusiveMaximum" : "exclusiveMinimum";
        BSONElement b = get(bound), x = get(excl);
        if (b.eoo()) {
            uassert(ErrorCodes::FailedToParse, kw(bound) + " must be a present if " + excl + " is present", x.eoo());
            continue;
        }
        uassert(ErrorCodes::TypeMismatch, kw(excl) + " must be a boolean", x.eoo() || x.type() == Bool);
        uassert(ErrorCodes::TypeMismatch, kw(bound) + " must be a number", b.isNumber());
        add(std::make_unique<BoundKeyword>(b, isMax, !x.eoo() && x.boolean()));
    }
}

void SchemaParser::parseArrayKeywords(Schema* s, bool isRoot) {
    auto add = [&](std::unique_ptr<Keyword> k) {
        if (!isRoot) s->keywords.push_back(std::move(k));
    };
    for (const char* name : {"minItems", "maxItems"}) {
        if (BSONElement e = get(name); !e.eoo()) {
            long long limit = parseNonNegativeLong(e);
            add(std::make_unique<ItemCountKeyword>(e, name[1] == 'a', limit));
        }
    }
    if (BSONElement u = get("uniqueItems"); !u.eoo()) {
        uassert(ErrorCodes::TypeMismatch, kw("uniqueItems") + " must be a boolean", u.type() == Bool);
        if (u.boolean()) add(std::make_unique<UniqueItemsKeyword>(u));
    }
    std::optional<size_t> additionalFrom;  // items as an array: where additionalItems starts
    if (BSONElement items = get("items"); !items.eoo()) {
        if (items.type() == Array) {
            std::vector<std::unique_ptr<Schema>> schemas;
            for (BSONElement sub : items.Obj()) {
                uassert(ErrorCodes::TypeMismatch,
                        kw("items") + " requires that each element of the array is an object, but found a " +
                            typeName(sub.type()),
                        sub.type() == Object);
                schemas.push_back(SchemaParser().parse(sub.Obj(), false));
            }
            additionalFrom = schemas.size();
            add(std::make_unique<ItemsArrayKeyword>(std::move(schemas)));
        } else {
            uassert(ErrorCodes::TypeMismatch, kw("items") + " must be an array or an object, not " + typeName(items.type()),
                    items.type() == Object);
            add(std::make_unique<ItemsSchemaKeyword>(SchemaParser().parse(items.Obj(), false)));
        }
    }
    if (BSONElement ai = get("additionalItems"); !ai.eoo()) {
        uassert(ErrorCodes::TypeMismatch,
                kw("additionalItems") + " must be either an object or a boolean, but got a " + typeName(ai.type()),
                ai.type() == Bool || ai.type() == Object);
        std::unique_ptr<Schema> sub;
        if (ai.type() == Object) sub = SchemaParser().parse(ai.Obj(), false);
        // Only meaningful after an array-form items; additionalItems: true allows anything.
        if (additionalFrom && (sub || !ai.boolean()))
            add(std::make_unique<AdditionalItemsKeyword>(ai, *additionalFrom, std::move(sub)));
    }
}

void SchemaParser::parseEncryptionKeywords(Schema* s, bool isRoot) {
    BSONElement enc = get("encrypt"), meta = get("encryptMetadata");
    if (enc.eoo() && meta.eoo()) return;
    uassert(ErrorCodes::QueryFeatureNotAllowed, "Encryption-related validator keywords are not allowed in this context",
            tlParsingValidator);
    uassert(ErrorCodes::FailedToParse, "Cannot specify both $jsonSchema keywords 'encrypt' and 'encryptMetadata'",
            enc.eoo() || meta.eoo());
    if (!meta.eoo()) {
        uassert(ErrorCodes::TypeMismatch, kw("encryptMetadata") + " must be an object ", meta.type() == Object);
        uassert(ErrorCodes::FailedToParse, kw("encryptMetadata") + " cannot be an empty object ", !meta.Obj().isEmpty());
        parseEncryptionFields(meta.Obj(), "encryptMetadata", false);
        return;
    }
    uassert(ErrorCodes::TypeMismatch, kw("encrypt") + " must be an object ", enc.type() == Object);
    auto types = parseEncryptionFields(enc.Obj(), "encrypt", true);
    if (!isRoot) s->keywords.push_back(std::make_unique<EncryptKeyword>(std::move(types)));
}

void SchemaParser::parseObjectKeywords(Schema* s, bool isRoot) {
    std::set<std::string> required;
    BSONElement req = get("required");
    if (!req.eoo()) {
        uassert(ErrorCodes::TypeMismatch,
                kw("required") + " must be an array, but found an element of type " + typeName(req.type()),
                req.type() == Array);
        for (BSONElement n : req.Obj()) {
            uassert(ErrorCodes::TypeMismatch,
                    kw("required") + " must be an array of strings, but found an element of type: " + typeName(n.type()),
                    n.type() == String);
            uassert(ErrorCodes::FailedToParse, kw("required") + " array cannot contain duplicate values",
                    required.insert(n.str()).second);
        }
        uassert(ErrorCodes::FailedToParse, kw("required") + " cannot be an empty array", !required.empty());
    }

    BSONElement props = get("properties");
    std::set<std::string> named;
    if (!props.eoo()) {
        uassert(ErrorCodes::TypeMismatch, kw("properties") + " must be an object", props.type() == Object);
        std::vector<NamedSchema> list;
        for (BSONElement p : props.Obj()) {
            uassert(ErrorCodes::TypeMismatch,
                    "Nested schema for $jsonSchema property '" + std::string(p.fieldNameStringData()) + "' must be an object",
                    p.type() == Object);
            named.insert(std::string(p.fieldNameStringData()));
            list.push_back({std::string(p.fieldNameStringData()), SchemaParser().parse(p.Obj(), false)});
        }
        s->keywords.push_back(std::make_unique<PropertiesKeyword>(std::move(list)));
    }

    BSONElement pp = get("patternProperties"), ap = get("additionalProperties");
    if (!pp.eoo() || !ap.eoo()) {
        auto patterns = std::make_shared<PatternSchemas>();
        if (!pp.eoo()) {
            uassert(ErrorCodes::TypeMismatch, kw("patternProperties") + " must be an object", pp.type() == Object);
            for (BSONElement p : pp.Obj()) {
                uassert(ErrorCodes::TypeMismatch,
                        kw("patternProperties") + " has property '" + std::string(p.fieldNameStringData()) +
                            "' which is not an object",
                        p.type() == Object);
                auto sub = SchemaParser().parse(p.Obj(), false);
                patterns->push_back({std::string(p.fieldNameStringData()),
                                     std::make_unique<MatcherRegex>(p.fieldNameStringData(), ""), std::move(sub)});
            }
        }
        std::unique_ptr<Schema> otherwise;
        bool restrictsAdditional = false;
        if (!ap.eoo()) {
            uassert(ErrorCodes::TypeMismatch, kw("additionalProperties") + " must be an object or a boolean",
                    ap.type() == Bool || ap.type() == Object);
            if (ap.type() == Object) otherwise = SchemaParser().parse(ap.Obj(), false);
            restrictsAdditional = ap.type() == Object || !ap.boolean();
        }
        std::shared_ptr<const PatternSchemas> shared = patterns;
        if (restrictsAdditional)
            s->keywords.push_back(
                std::make_unique<AdditionalPropertiesKeyword>(ap, named, shared, std::move(otherwise)));
        if (!shared->empty()) s->keywords.push_back(std::make_unique<PatternPropertiesKeyword>(shared));
    }

    if (!required.empty())
        s->keywords.push_back(
            std::make_unique<RequiredKeyword>(req, std::vector<std::string>(required.begin(), required.end())));

    for (const char* name : {"minProperties", "maxProperties"}) {
        if (BSONElement e = get(name); !e.eoo()) {
            long long limit = parseNonNegativeLong(e);
            s->keywords.push_back(std::make_unique<PropertyCountKeyword>(e, name[1] == 'a', limit));
        }
    }
    if (BSONElement deps = get("dependencies"); !deps.eoo()) s->keywords.push_back(parseDependencies(deps, isRoot));
}

std::unique_ptr<Keyword> SchemaParser::parseDependencies(const BSONElement& e, bool isRoot) {
    uassert(ErrorCodes::TypeMismatch, kw("dependencies") + " must be an object", e.type() == Object);
    std::vector<DependenciesKeyword::Dependency> deps;
    for (BSONElement d : e.Obj()) {
        std::string prop(d.fieldNameStringData());
        std::string where = "property '" + prop + "' in " + kw("dependencies");
        if (d.type() == Object) {
            // The schema applies to the object holding the property (same level as this one).
            deps.push_back({prop, {}, SchemaParser().parse(d.Obj(), isRoot)});
            continue;
        }
        uassert(ErrorCodes::TypeMismatch, where + " must be either an object or an array", d.type() == Array);
        uassert(ErrorCodes::FailedToParse, where + " cannot be an empty array", !d.Obj().isEmpty());
        std::vector<std::string> names;
        std::set<std::string> seen;
        for (BSONElement n : d.Obj()) {
            std::string arr = "array '" + prop + "' in " + kw("dependencies");
            uassert(ErrorCodes::TypeMismatch,
                    arr + " can only contain strings, but found element of type: " + typeName(n.type()),
                    n.type() == String);
            uassert(ErrorCodes::FailedToParse, arr + " contains duplicate element: " + n.str(), seen.insert(n.str()).second);
            names.push_back(n.str());
        }
        deps.push_back({prop, std::move(names), nullptr});
    }
    return std::make_unique<DependenciesKeyword>(std::move(deps));
}

void SchemaParser::parseLogicalKeywords(Schema* s, bool isRoot) {
    const std::pair<const char*, SchemaListKeyword::Kind> lists[] = {
        {"allOf", SchemaListKeyword::kAllOf}, {"anyOf", SchemaListKeyword::kAnyOf}, {"oneOf", SchemaListKeyword::kOneOf}};
    for (const auto& [name, kind] : lists) {
        BSONElement e = get(name);
        if (e.eoo()) continue;
        uassert(ErrorCodes::TypeMismatch, kw(name) + " must be an array", e.type() == Array);
        uassert(ErrorCodes::BadValue, kw(name) + " must be a non-empty array", !e.Obj().isEmpty());
        std::vector<std::unique_ptr<Schema>> schemas;
        for (BSONElement sub : e.Obj()) {
            uassert(ErrorCodes::TypeMismatch,
                    kw(name) + " must be an array of objects, but found an element of type " + typeName(sub.type()),
                    sub.type() == Object);
            // Subschemas constrain the same value as this schema.
            schemas.push_back(SchemaParser().parse(sub.Obj(), isRoot));
        }
        s->keywords.push_back(std::make_unique<SchemaListKeyword>(kind, std::move(schemas)));
    }
    if (BSONElement n = get("not"); !n.eoo()) {
        uassert(ErrorCodes::TypeMismatch, kw("not") + " must be an object, but found an element of type " + typeName(n.type()),
                n.type() == Object);
        s->keywords.push_back(std::make_unique<NotKeyword>(SchemaParser().parse(n.Obj(), isRoot)));
    }
    if (BSONElement e = get("enum"); !e.eoo()) {
        uassert(ErrorCodes::TypeMismatch, kw("enum") + " must be an array, but found an element of type " + typeName(e.type()),
                e.type() == Array);
        uassert(ErrorCodes::FailedToParse, kw("enum") + " cannot be an empty array", !e.Obj().isEmpty());
        uassert(ErrorCodes::FailedToParse, kw("enum") + " array cannot contain duplicate values.",
                firstDuplicateIndex(e.Obj()) < 0);
        std::vector<BSONElement> values;
        for (BSONElement v : e.Obj())
            if (!isRoot || v.type() == Object) values.push_back(v);  // only documents are stored
        if (values.empty()) {
            BSONObjBuilder d;
            d.append("operatorName", "enum");
            d.append("specifiedAs", e.wrap());
            d.append("reason", "expression always evaluates to false");
            s->keywords.push_back(std::make_unique<AlwaysFalseKeyword>(d.obj()));
        } else {
            s->keywords.push_back(std::make_unique<EnumKeyword>(e, std::move(values)));
        }
    }
}

}  // namespace

bool parsingCollectionValidator() { return tlParsingValidator; }

std::unique_ptr<Schema> parseSchema(const BSONObj& schema, bool isRoot) { return SchemaParser().parse(schema, isRoot); }

}  // namespace json_schema

ParsingCollectionValidatorScope::ParsingCollectionValidatorScope() : _previous(json_schema::tlParsingValidator) {
    json_schema::tlParsingValidator = true;
}

ParsingCollectionValidatorScope::~ParsingCollectionValidatorScope() { json_schema::tlParsingValidator = _previous; }

std::unique_ptr<JsonSchema> JsonSchema::parse(const BSONElement& arg) {
    uassert(ErrorCodes::TypeMismatch, "$jsonSchema must be an object", arg.type() == Object);
    std::unique_ptr<JsonSchema> js(new JsonSchema());
    js->_schema = arg.Obj().getOwned();
    js->_root = json_schema::parseSchema(js->_schema, true);
    js->_matchesNothing = !js->_root->matchesNothingDetail.isEmpty();
    return js;
}

JsonSchema::~JsonSchema() = default;

bool JsonSchema::matches(const BSONObj& doc) const { return _root->matches(json_schema::Subject::root(doc)); }

BSONObj JsonSchema::explainFailure(const BSONObj& doc) const {
    if (_matchesNothing) return _root->matchesNothingDetail;
    BSONObjBuilder b;
    b.append("operatorName", "$jsonSchema");
    _root->appendAnnotations(b);
    b.append("schemaRulesNotSatisfied", _root->explain(json_schema::Subject::root(doc)));
    return b.obj();
}

}  // namespace mongo
