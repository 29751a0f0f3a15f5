// $unwind: one output document per element of an array field.
#include "mongo/db/pipeline/document_source.h"

namespace mongo {
namespace {

class DocumentSourceUnwind : public DocumentSource {
public:
    DocumentSourceUnwind(ExpressionContext* expCtx, BSONObj spec, FieldPath path, bool preserve,
                         std::optional<FieldPath> indexField)
        : DocumentSource(expCtx), _spec(std::move(spec)), _path(std::move(path)), _preserve(preserve),
          _indexField(std::move(indexField)) {}
    const char* name() const override { return "$unwind"; }
    BSONObj serialize() const override { return _spec; }

    std::optional<Document> getNext() override {
        while (true) {
            if (_current) {
                const auto& arr = _array.getArray();
                if (_index < arr.size()) {
                    MutableDoc out(*_current);
                    out.setNestedField(_path, arr[_index]);
                    if (_indexField) out.setNestedField(*_indexField, Value(static_cast<long long>(_index)));
                    _index++;
                    return out.freeze();
                }
                _current.reset();
            }
            auto in = pullInput();
            if (!in) return std::nullopt;
            Value v = in->getNestedField(_path);
            if (v.isArray() && v.getArrayLength() > 0) {
                _current = std::move(*in);
                _array = std::move(v);
                _index = 0;
                continue;
            }
            if (v.isArray() || v.nullish()) {
                if (!_preserve) continue;
                MutableDoc out(*in);
                // An empty array disappears; null and missing stay as they were.
                if (v.isArray()) removeNested(&out, 0);
                if (_indexField) out.setNestedField(*_indexField, Value::null());
                return out.freeze();
            }
            // A non-array value acts as a one-element array.
            if (!_indexField) return in;
            MutableDoc out(*in);
            out.setNestedField(*_indexField, Value::null());
            return out.freeze();
        }
    }

private:
    void removeNested(MutableDoc* doc, size_t depth) {
        if (depth + 1 == _path.size()) {
            doc->removeField(_path[depth]);
            return;
        }
        Value sub = doc->getField(_path[depth]);
        if (!sub.isObject()) return;
        MutableDoc m(sub.getDocument());
        removeNested(&m, depth + 1);
        doc->setField(_path[depth], Value(m.freeze()));
    }

    BSONObj _spec;
    FieldPath _path;
    bool _preserve;
    std::optional<FieldPath> _indexField;
    std::optional<Document> _current;
    Value _array;
    size_t _index = 0;
};

FieldPath unwindPath(const std::string& raw) {
    uassert(28818, "path option to $unwind stage should be prefixed with a '$': " + raw, !raw.empty() && raw[0] == '$');
    return FieldPath(raw.substr(1));
}

std::vector<StagePtr> parseUnwind(const BSONElement& e, const StageParseContext& ctx) {
    if (e.type() == String) {
        return singleStage(std::make_unique<DocumentSourceUnwind>(ctx.expCtx, stageSpec("$unwind", e), unwindPath(e.str()),
                                                             false, std::nullopt));
    }
    uassert(15981, "expected either a string or an object as specification for $unwind stage, got " + typeName(e.type()),
            e.type() == Object);
    std::optional<std::string> path;
    bool preserve = false;
    std::optional<FieldPath> index;
    for (BSONElement f : e.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "path") {
            uassert(28808, "expected a string as the path for $unwind stage, got " + typeName(f.type()),
                    f.type() == String);
            path = f.str();
        } else if (n == "preserveNullAndEmptyArrays") {
            uassert(28809,
                    "expected a boolean for the preserveNullAndEmptyArrays option to $unwind stage, got " +
                        typeName(f.type()),
                    f.type() == Bool);
            preserve = f.boolean();
        } else if (n == "includeArrayIndex") {
            uassert(28810,
                    "expected a non-empty string for the includeArrayIndex option to $unwind stage, got " +
                        typeName(f.type()),
                    f.type() == String && !f.valueStringData().empty());
            uassert(28822,
                    "includeArrayIndex option to $unwind stage should not be prefixed with a '$': " + f.str(),
                    f.valueStringData()[0] != '$');
            index = FieldPath(f.str());
        } else {
            uasserted(28811, "unrecognized option to $unwind stage: " + std::string(n));
        }
    }
    uassert(28812, "No path specified to $unwind stage", path.has_value());
    return singleStage(std::make_unique<DocumentSourceUnwind>(ctx.expCtx, stageSpec("$unwind", e), unwindPath(*path), preserve,
                                                         std::move(index)));
}

struct Registrar {
    Registrar() { registerStage("$unwind", parseUnwind); }
} registrar;

}  // namespace
}  // namespace mongo
