// $inc, $mul, $min, $max and $bit.
#include <cmath>
#include <cstring>
#include <limits>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/decimal_arith.h"
#include "mongo/db/update/element_format.h"
#include "mongo/db/update/modifier_node.h"

namespace mongo {
namespace {

BSONObj wrapLong(long long v) {
    BSONObjBuilder b;
    b.appendLong("", v);
    return b.obj();
}
BSONObj wrapInt(int v) {
    BSONObjBuilder b;
    b.appendInt("", v);
    return b.obj();
}
BSONObj wrapDouble(double v) {
    BSONObjBuilder b;
    b.append("", v);
    return b.obj();
}
BSONObj wrapDecimal(const Decimal128Bytes& d) {
    BSONObjBuilder b;
    b.appendDecimal128("", d.data());
    return b.obj();
}

// mongod's numeric promotion (SafeNum): the result has the wider operand type
// (int < long < double < decimal); int overflow widens to long, long overflow to double.
BSONObj arithmetic(const BSONElement& lhs, const BSONElement& rhs, bool multiply) {
    BSONType lt = lhs.type(), rt = rhs.type();
    if (lt == NumberDecimal || rt == NumberDecimal) {
        Decimal128Bytes a = decimalFromNumber(lhs), b = decimalFromNumber(rhs);
        return wrapDecimal(multiply ? decimalMultiply(a, b) : decimalAdd(a, b));
    }
    if (lt == NumberDouble || rt == NumberDouble) {
        double a = lhs.numberDouble(), b = rhs.numberDouble();
        return wrapDouble(multiply ? a * b : a + b);
    }
    long long a = lhs.numberLong(), b = rhs.numberLong();
    long long r;
    bool overflow = multiply ? __builtin_mul_overflow(a, b, &r) : __builtin_add_overflow(a, b, &r);
    if (overflow) {
        double da = static_cast<double>(a), db = static_cast<double>(b);
        return wrapDouble(multiply ? da * db : da + db);
    }
    if (lt == NumberInt && rt == NumberInt && r >= std::numeric_limits<int>::min() &&
        r <= std::numeric_limits<int>::max())
        return wrapInt(static_cast<int>(r));
    return wrapLong(r);
}

class ArithmeticNode final : public ModifierNode {
public:
    ArithmeticNode(const BSONElement& operand, bool multiply) : _operand(operand), _multiply(multiply) {}

protected:
    bool updateExisting(ApplyContext* ctx, MutableElement* target) const override {
        BSONElement current = target->value();
        if (!current.isNumber())
            uasserted(ErrorCodes::TypeMismatch,
                      std::string("Cannot apply ") + (_multiply ? "$mul" : "$inc") +
                          " to a value of non-numeric type. {" + ctx->idDescription + "} has the field '" +
                          target->fieldName() + "' of non-numeric type " + typeName(current.type()));
        BSONElement result = keepValue(ctx, arithmetic(current, _operand, _multiply));
        if (sameValueBytes(result, current)) return false;
        target->setValue(result);
        return true;
    }
    BSONElement valueForNewElement(ApplyContext* ctx) const override {
        if (!_multiply) return _operand;
        // $mul on a missing field stores 0 of the multiplier's type.
        static const BSONObj kZero = wrapInt(0);
        return keepValue(ctx, arithmetic(kZero.firstElement(), _operand, true));
    }

private:
    BSONElement _operand;
    bool _multiply;
};

class CompareNode final : public ModifierNode {
public:
    CompareNode(const BSONElement& value, bool isMax, CollatorPtr collator)
        : _value(value), _isMax(isMax), _collator(std::move(collator)) {}

protected:
    bool updateExisting(ApplyContext*, MutableElement* target) const override {
        int c = _value.woCompare(target->value(), false, _collator.get());
        if (_isMax ? c <= 0 : c >= 0) return false;
        target->setValue(_value);
        return true;
    }
    BSONElement valueForNewElement(ApplyContext*) const override { return _value; }

private:
    BSONElement _value;
    bool _isMax;
    CollatorPtr _collator;
};

class BitNode final : public ModifierNode {
public:
    enum class Op { kAnd, kOr, kXor };
    explicit BitNode(std::vector<std::pair<Op, BSONElement>> ops) : _ops(std::move(ops)) {}

protected:
    bool updateExisting(ApplyContext* ctx, MutableElement* target) const override {
        BSONElement current = target->value();
        if (current.type() != NumberInt && current.type() != NumberLong)
            uasserted(ErrorCodes::BadValue,
                      "Cannot apply $bit to a value of non-integral type." + ctx->idDescription + " has the field " +
                          target->fieldName() + " of non-integer type " + typeName(current.type()));
        BSONElement result = keepValue(ctx, compute(current));
        if (sameValueBytes(result, current)) return false;
        target->setValue(result);
        return true;
    }
    BSONElement valueForNewElement(ApplyContext* ctx) const override {
        static const BSONObj kZero = wrapInt(0);
        return keepValue(ctx, compute(kZero.firstElement()));
    }

private:
    BSONObj compute(const BSONElement& start) const {
        bool isLong = start.type() == NumberLong;
        long long v = start.numberLong();
        for (auto& [op, operand] : _ops) {
            isLong = isLong || operand.type() == NumberLong;
            long long o = operand.numberLong();
            if (!isLong) {
                // 32-bit operands combine as 32-bit values.
                int a = static_cast<int>(v), b = static_cast<int>(o);
                v = op == Op::kAnd ? (a & b) : op == Op::kOr ? (a | b) : (a ^ b);
            } else {
                v = op == Op::kAnd ? (v & o) : op == Op::kOr ? (v | o) : (v ^ o);
            }
        }
        return isLong ? wrapLong(v) : wrapInt(static_cast<int>(v));
    }
    std::vector<std::pair<Op, BSONElement>> _ops;
};

}  // namespace

std::shared_ptr<UpdateNode> makeArithmeticNode(const BSONElement& modExpr, bool multiply) {
    if (!modExpr.isNumber())
        uasserted(ErrorCodes::TypeMismatch,
                  std::string("Cannot ") + (multiply ? "multiply" : "increment") + " with non-numeric argument: {" +
                      formatElementForError(modExpr) + "}");
    return std::make_shared<ArithmeticNode>(modExpr, multiply);
}

std::shared_ptr<UpdateNode> makeCompareNode(const BSONElement& modExpr, bool isMax, CollatorPtr collator) {
    return std::make_shared<CompareNode>(modExpr, isMax, std::move(collator));
}

std::shared_ptr<UpdateNode> makeBitNode(const BSONElement& modExpr) {
    if (modExpr.type() != Object)
        uasserted(ErrorCodes::BadValue,
                  "The $bit modifier is not compatible with a " + typeName(modExpr.type()) +
                      ".  You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}");
    std::vector<std::pair<BitNode::Op, BSONElement>> ops;
    for (BSONElement e : modExpr.Obj()) {
        std::string_view name = e.fieldNameStringData();
        BitNode::Op op;
        if (name == "and")
            op = BitNode::Op::kAnd;
        else if (name == "or")
            op = BitNode::Op::kOr;
        else if (name == "xor")
            op = BitNode::Op::kXor;
        else
            uasserted(ErrorCodes::BadValue,
                      "The $bit modifier only supports 'and', 'or', and 'xor', not '" + std::string(name) +
                          "' which is an unknown operator: {" + formatElementForError(e) + "}");
        if (e.type() != NumberInt && e.type() != NumberLong)
            uasserted(ErrorCodes::BadValue,
                      "The $bit modifier field must be an Integer(32/64 bit); a '" + typeName(e.type()) +
                          "' is not supported here: {" + formatElementForError(e) + "}");
        ops.emplace_back(op, e);
    }
    if (ops.empty())
        uasserted(ErrorCodes::BadValue,
                  "You must pass in at least one bitwise operation. The format is: {$bit: {field: {and/or/xor: #}}");
    return std::make_shared<BitNode>(std::move(ops));
}

}  // namespace mongo
