"""Malformed inputs for test_command_fuzz.py: odd BSON values, random (mostly well-shaped but
wrong) filters, updates, expressions, pipelines, projections, sorts and index specs, and a
table of every command's arguments with a valid value each.

Everything draws from a random.Random passed in, so one seed gives one sequence of cases.
The namespaces used are "fuzz.*" (and "admin" for admin-only commands); nothing here names
another database, so the fuzzing cannot touch data it was not given.
"""
import datetime
import math
import struct
import uuid

import bson
from bson import Binary, Code, DBRef, Decimal128, Int64, MaxKey, MinKey, ObjectId, Regex, Timestamp
from bson.binary import UuidRepresentation
from bson.codec_options import CodecOptions, DatetimeConversion
from bson.datetime_ms import DatetimeMS
from bson.raw_bson import RawBSONDocument

FUZZ_DB = "fuzz"
COLL = "c"          # seeded collection the query/update cases run against
OTHER = "other"     # second seeded collection ($lookup, $unionWith targets)

# Encodes uuid.UUID as binData subtype 4; decodes dates outside datetime's range as DatetimeMS.
CODEC = CodecOptions(uuid_representation=UuidRepresentation.STANDARD,
                     datetime_conversion=DatetimeConversion.DATETIME_AUTO)


# ---------------------------------------------------------------------------------------------
# Raw BSON helpers: duplicate field names and nesting deeper than pymongo's encoder allows.

def _element(name, value):
    return bson.encode({name: value}, codec_options=CODEC)[4:-1]


def dup_doc(*pairs):
    """A document that may repeat a field name (a plain dict cannot)."""
    body = b"".join(_element(k, v) for k, v in pairs)
    return RawBSONDocument(struct.pack("<i", len(body) + 5) + body + b"\x00")


def nested(depth, key="a", leaf=1, as_array=False):
    """{key: {key: ... {key: leaf}}} with `depth` documents, built as raw bytes in one pass
    (pymongo's encoder recurses, and re-wrapping bytes level by level is quadratic). With
    as_array each level is {key: [ ... ]}, two BSON levels. leaf may be encoded BSON bytes (the
    innermost document) or a value (then the innermost document is {key: leaf})."""
    inner = leaf if isinstance(leaf, bytes) else bson.encode({key: leaf}, codec_options=CODEC)
    levels = depth - (0 if isinstance(leaf, bytes) else 1)
    k = key.encode() + b"\x00"
    prefixes = []
    size = len(inner)
    for _ in range(levels):
        if as_array:
            arr = 4 + 3 + size + 1
            size = 4 + 1 + len(k) + arr + 1
            prefixes.append(struct.pack("<i", size) + b"\x04" + k + struct.pack("<i", arr) + b"\x030\x00")
        else:
            size = 4 + 1 + len(k) + size + 1
            prefixes.append(struct.pack("<i", size) + b"\x03" + k)
    tail = (b"\x00\x00" if as_array else b"\x00") * levels
    return RawBSONDocument(b"".join(reversed(prefixes)) + inner + tail)


# ---------------------------------------------------------------------------------------------
# Values

HUGE_ARRAY = list(range(100000))
LONG_STRING = "x" * 200000


def odd_values():
    """Values of every BSON type and the edge values that break naive parsers."""
    return [
        None, True, False, 0, 1, -1, 2, 1.5, -0.0, 2 ** 31 - 1, -2 ** 31, Int64(2 ** 63 - 1), Int64(-2 ** 63),
        Int64(2 ** 53 + 1), 1e308, -1e308, 5e-324, float("nan"), float("inf"), float("-inf"),
        Decimal128("NaN"), Decimal128("-Infinity"), Decimal128("1E+6144"), Decimal128("-0"),
        Decimal128("9.999999999999999999999999999999999E+6144"), Decimal128("1E-6176"), Decimal128("0.5"),
        "", "x", "$x", "$", "$$", "$$ROOT", "a.b", "a..b", ".", "a.", "$a.$b", "\u00fc\u4e2d", "a\x00b", " ", "*",
        "$**", LONG_STRING, [], [None], [1, "a", {}], [[[]]], [{"$x": 1}], {}, {"a": 1}, {"$x": 1}, {"": 1},
        {"a.b": 1}, {"$a": {"$b": 1}}, MinKey(), MaxKey(), Regex("(", ""), Regex("a", "zq"), Regex("", ""),
        Regex("a{99999}", ""), Binary(b"", 0), Binary(b"\x00" * 16, 4), Binary(b"\x01" * 3, 4), Binary(b"x", 128),
        Binary(b"\xff" * 5, 2), Code("function() { return 1; }"), Code("x", {"a": 1}), ObjectId("000000000000000000000000"),
        datetime.datetime(1970, 1, 1), DatetimeMS(-2 ** 63), DatetimeMS(2 ** 63 - 1), Timestamp(0, 0),
        Timestamp(2 ** 32 - 1, 2 ** 32 - 1), DBRef("c", 1), uuid.UUID(int=0),
    ]


def big_values():
    """Values large enough to stress allocation or nesting limits (used sparingly)."""
    return [HUGE_ARRAY, nested(150), nested(199), nested(250), {str(i): i for i in range(5000)},
            [[i] for i in range(20000)]]


class Gen:
    """Random generators over one random.Random. p_weird: chance an argument is an odd value
    instead of a well-shaped one."""

    FIELDS = ["a", "b", "c", "d", "d.e", "a.b", "a.0", "c.1", "_id", "d.f.g", "arr", "x", "s", "dt",
              "a.b.c.d", "c.$", "a.$[]", "a.$[i]", "$a", "", "a..b", ".a", "a.", "d.f.0.g", "arr.0.1"]

    def __init__(self, rng, p_weird=0.25):
        self.r = rng
        self.p_weird = p_weird
        self._odd = odd_values()
        self._big = big_values()

    # -- basics
    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def odd(self):
        if self.chance(0.02):
            return self.pick(self._big)
        return self.pick(self._odd)

    def field(self):
        if self.chance(0.05):
            return self.pick(["a" * 300, ".".join(["a"] * 250), "a.b." + "0." * 40 + "c", "\u00e9", "a b", "$**"])
        return self.pick(self.FIELDS)

    def number(self):
        return self.pick([0, 1, -1, 2, 3, 10, 1.5, -2.5, 2 ** 31, Int64(2 ** 62), float("nan"), float("inf"),
                          Decimal128("2"), Decimal128("NaN"), -2 ** 31, Int64(-2 ** 63), 1e18, 5e-324])

    def plain(self):
        return self.pick([1, 2, -3, 0.5, "x", "hello", None, True, [1, 2], {"b": 1}, [], {}, datetime.datetime(2020, 1, 1),
                          ObjectId("5f0000000000000000000001"), Int64(7), Decimal128("1.1")])

    def value(self, depth=0):
        if depth > 3 or self.chance(0.6):
            return self.odd() if self.chance(self.p_weird) else self.plain()
        if self.chance(0.5):
            return {self.field(): self.value(depth + 1) for _ in range(self.r.randrange(0, 3))}
        return [self.value(depth + 1) for _ in range(self.r.randrange(0, 4))]

    def maybe(self, good):
        """good() most of the time, an odd value otherwise."""
        return self.odd() if self.chance(self.p_weird) else good()

    # -- query language
    QUERY_OPS = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists", "$type", "$mod", "$regex",
                 "$options", "$size", "$all", "$elemMatch", "$not", "$bitsAllSet", "$bitsAnySet", "$bitsAllClear",
                 "$bitsAnyClear", "$geoWithin", "$geoIntersects", "$near", "$nearSphere", "$within", "$maxDistance",
                 "$minDistance", "$comment", "$and", "$or", "$where", "$text", "$expr", "$bogus", "$_internalExprEq"]
    TOP_OPS = ["$and", "$or", "$nor", "$expr", "$where", "$text", "$jsonSchema", "$comment", "$alwaysTrue",
               "$alwaysFalse", "$sampleRate", "$isolated", "$atomic", "$bogus", "$eq", "$in"]
    TYPE_ALIASES = ["double", "string", "object", "array", "binData", "undefined", "objectId", "bool", "date", "null",
                    "regex", "dbPointer", "javascript", "symbol", "javascriptWithScope", "int", "timestamp", "long",
                    "decimal", "minKey", "maxKey", "number", "bogus", "", "Double", "STRING"]
    REGEXES = ["a", "^h", "(", "[", ")", "*", "a{2,1}", "(?<n", "\\", "\\p{Bogus}", "(a+)+$", "a" * 20000, "(?i)x",
               "[[:bogus:]]", "\\k<x>", "(?=a)(?!b)", "a|" * 1000 + "b", "(" * 300 + ")" * 300]

    def regex_options(self):
        return self.pick(["", "i", "imsx", "z", "ii", "u", "\u00fc", "imsxlu", "ix", "$"])

    def query_op_arg(self, op, depth):
        g = self
        if op in ("$in", "$nin", "$all"):
            if g.chance(0.05):
                return HUGE_ARRAY
            items = [g.value(depth + 1) for _ in range(g.r.randrange(0, 5))]
            if g.chance(0.2):
                items.append(Regex(g.pick(self.REGEXES), g.regex_options()))
            if op == "$all" and g.chance(0.3):
                items = [{"$elemMatch": g.filter(depth + 1)} for _ in range(g.r.randrange(0, 3))]
            return g.maybe(lambda: items)
        if op == "$type":
            return g.maybe(lambda: g.pick([g.pick(self.TYPE_ALIASES), g.pick([1, 2, 3, 4, 5, 16, 18, 19, 127, -1,
                                                                               0, 20, 255, -128, 1.5, 2 ** 40]),
                                            [g.pick(self.TYPE_ALIASES), 2], []]))
        if op == "$mod":
            return g.maybe(lambda: [g.number() for _ in range(g.pick([0, 1, 2, 2, 2, 3]))])
        if op == "$regex":
            return g.maybe(lambda: g.pick([g.pick(self.REGEXES), Regex(g.pick(self.REGEXES), g.regex_options())]))
        if op == "$options":
            return g.maybe(self.regex_options)
        if op == "$size":
            return g.maybe(g.number)
        if op in ("$elemMatch", "$not"):
            if g.chance(0.5):
                return {g.pick(self.QUERY_OPS): g.query_op_arg(g.pick(self.QUERY_OPS), depth + 1)}
            if op == "$not" and g.chance(0.3):
                return Regex(g.pick(self.REGEXES), g.regex_options())
            return g.maybe(lambda: g.filter(depth + 1))
        if op.startswith("$bits"):
            return g.maybe(lambda: g.pick([g.number(), [g.pick([0, 1, 63, 64, -1, 2 ** 31, 1.5, "x"])
                                                        for _ in range(g.r.randrange(0, 4))],
                                            Binary(b"\xff" * g.r.randrange(0, 20), 0)]))
        if op in ("$geoWithin", "$within", "$geoIntersects", "$near", "$nearSphere"):
            shapes = [{"$box": [[0, 0], [g.number(), g.number()]]}, {"$center": [[0, 0], g.number()]},
                      {"$centerSphere": [[0, 0], g.number()]}, {"$polygon": [[0, 0], [1, 1]]},
                      {"$geometry": {"type": g.pick(["Point", "Polygon", "LineString", "Bogus"]),
                                     "coordinates": g.value(depth + 1)}},
                      [g.number(), g.number()], {"$bogus": 1}]
            return g.maybe(lambda: g.pick(shapes))
        if op in ("$and", "$or"):
            return [g.filter(depth + 1) for _ in range(g.r.randrange(0, 3))]
        if op == "$expr":
            return g.expr(depth + 1)
        return g.value(depth + 1)

    def filter(self, depth=0):
        g = self
        if depth > 4:
            return {g.field(): g.plain()}
        out = {}
        for _ in range(g.r.randrange(0, 3)):
            roll = g.r.random()
            if roll < 0.35:
                out[g.field()] = g.value(depth + 1)
            elif roll < 0.7:
                ops = {}
                for _ in range(g.r.randrange(1, 3)):
                    op = g.pick(self.QUERY_OPS)
                    ops[op] = g.query_op_arg(op, depth + 1)
                out[g.field()] = ops
            else:
                op = g.pick(self.TOP_OPS)
                if op in ("$and", "$or", "$nor"):
                    arg = g.maybe(lambda: [g.filter(depth + 1) for _ in range(g.r.randrange(0, 4))])
                elif op == "$expr":
                    arg = g.expr(depth + 1)
                elif op == "$text":
                    arg = g.maybe(lambda: {"$search": g.maybe(lambda: "hello"),
                                           g.pick(["$language", "$caseSensitive", "$diacriticSensitive", "$bogus"]):
                                               g.value(depth + 1)})
                elif op == "$jsonSchema":
                    arg = g.maybe(lambda: {g.pick(["bsonType", "type", "properties", "required", "minimum", "enum",
                                                   "items", "additionalProperties", "bogus"]): g.value(depth + 1)})
                elif op == "$where":
                    arg = g.pick(["this.a == 1", Code("function() { return true; }"), 1, {}])
                else:
                    arg = g.value(depth + 1)
                out[op] = arg
        return out

    # -- aggregation expressions
    EXPR_OPS = ["$add", "$subtract", "$multiply", "$divide", "$mod", "$abs", "$ceil", "$floor", "$exp", "$ln", "$log",
                "$log10", "$pow", "$sqrt", "$trunc", "$round", "$concat", "$substr", "$substrBytes", "$substrCP",
                "$toUpper", "$toLower", "$strLenBytes", "$strLenCP", "$split", "$trim", "$ltrim", "$indexOfBytes",
                "$indexOfCP", "$strcasecmp", "$cmp", "$eq", "$ne", "$gt", "$lt", "$and", "$or", "$not", "$in",
                "$arrayElemAt", "$first", "$last", "$size", "$isArray", "$concatArrays", "$slice", "$reverseArray",
                "$range", "$indexOfArray", "$arrayToObject", "$objectToArray", "$mergeObjects", "$setUnion",
                "$setIntersection", "$setDifference", "$setEquals", "$setIsSubset", "$allElementsTrue",
                "$anyElementTrue", "$ifNull", "$literal", "$type", "$toInt", "$toLong", "$toDouble", "$toDecimal",
                "$toString", "$toBool", "$toDate", "$toObjectId", "$isNumber", "$year", "$month", "$dayOfWeek",
                "$hour", "$week", "$isoWeek", "$millisecond", "$sum", "$avg", "$max", "$min", "$stdDevPop",
                "$binarySize", "$bsonSize", "$rand", "$sin", "$atan2", "$degreesToRadians", "$bitAnd", "$bitNot",
                "$tsSecond", "$tsIncrement", "$meta", "$function", "$accumulator", "$bogus", "$$ROOT", "$",
                "$getField", "$setField", "$unsetField", "$let", "$map", "$filter", "$reduce", "$switch", "$cond",
                "$dateToString", "$dateFromString", "$dateFromParts", "$dateToParts", "$dateAdd", "$dateSubtract",
                "$dateDiff", "$dateTrunc", "$convert", "$regexMatch", "$regexFind", "$regexFindAll", "$replaceOne",
                "$replaceAll", "$sortArray", "$zip", "$firstN", "$lastN", "$maxN", "$minN", "$median", "$percentile",
                "$top", "$topN", "$bottom"]
    # Object-argument operators and their named arguments.
    EXPR_OBJ_ARGS = {
        "$let": ["vars", "in"], "$map": ["input", "as", "in"], "$filter": ["input", "as", "cond", "limit"],
        "$reduce": ["input", "initialValue", "in"], "$switch": ["branches", "default"],
        "$cond": ["if", "then", "else"], "$dateToString": ["format", "date", "timezone", "onNull"],
        "$dateFromString": ["dateString", "format", "timezone", "onError", "onNull"],
        "$dateFromParts": ["year", "month", "day", "hour", "isoWeekYear", "timezone"],
        "$dateToParts": ["date", "timezone", "iso8601"], "$dateAdd": ["startDate", "unit", "amount", "timezone"],
        "$dateSubtract": ["startDate", "unit", "amount"], "$dateDiff": ["startDate", "endDate", "unit", "startOfWeek"],
        "$dateTrunc": ["date", "unit", "binSize", "startOfWeek"], "$convert": ["input", "to", "onError", "onNull"],
        "$regexMatch": ["input", "regex", "options"], "$regexFind": ["input", "regex", "options"],
        "$regexFindAll": ["input", "regex", "options"], "$replaceOne": ["input", "find", "replacement"],
        "$replaceAll": ["input", "find", "replacement"], "$sortArray": ["input", "sortBy"],
        "$zip": ["inputs", "useLongestLength", "defaults"], "$firstN": ["n", "input"], "$lastN": ["n", "input"],
        "$maxN": ["n", "input"], "$minN": ["n", "input"], "$median": ["input", "method"],
        "$percentile": ["input", "p", "method"], "$getField": ["field", "input"],
        "$setField": ["field", "input", "value"], "$unsetField": ["field", "input"],
        "$trim": ["input", "chars"], "$ltrim": ["input", "chars"], "$round": ["input", "place"],
        "$function": ["body", "args", "lang"], "$accumulator": ["init", "accumulate", "merge", "lang"],
        "$top": ["sortBy", "output"], "$topN": ["n", "sortBy", "output"], "$bottom": ["sortBy", "output"],
    }
    VAR_PATHS = ["$a", "$b", "$c", "$d.e", "$$ROOT", "$$CURRENT", "$$NOW", "$$CLUSTER_TIME", "$$REMOVE", "$$DESCEND",
                 "$$bogus", "$$this", "$$value", "$", "$$", "$a..b", "$$ROOT.a", "$.a", "$a.", "$$x", "$$SEARCH_META",
                 "$$USER_ROLES", "$arr.0", "$d.f.g"]

    def expr(self, depth=0):
        g = self
        if depth > 5 or g.chance(0.35):
            return g.pick(self.VAR_PATHS) if g.chance(0.5) else g.value(depth + 1)
        op = g.pick(self.EXPR_OPS)
        if op in self.EXPR_OBJ_ARGS and g.chance(0.8):
            names = list(self.EXPR_OBJ_ARGS[op])
            args = {}
            for n in names:
                if g.chance(0.85):
                    args[n] = self._named_arg(op, n, depth)
            if g.chance(0.1):
                args["bogusArg"] = 1
            return {op: g.maybe(lambda: args)}
        n = g.pick([0, 1, 1, 2, 2, 2, 3, 5])
        args = [g.expr(depth + 1) for _ in range(n)]
        if op in ("$divide", "$mod") and g.chance(0.4):
            args = [g.expr(depth + 1), g.pick([0, 0.0, -0.0, Decimal128("0"), Int64(0), None])]
        if op in ("$range", "$slice", "$substr", "$substrBytes", "$substrCP", "$arrayElemAt", "$pow", "$round",
                  "$trunc", "$indexOfArray", "$indexOfBytes", "$indexOfCP") and g.chance(0.5):
            args = [g.pick(["$c", "hello\u00e9", [1, 2, 3], g.plain()])] + [g.number() for _ in range(g.r.randrange(0, 4))]
        if op == "$range":
            args = g.range_args()
        if len(args) == 1 and g.chance(0.5):
            return {op: args[0]}
        return {op: args}

    def range_args(self):
        """Arguments for $range that never ask for more than ~10^5 elements: the pipeline has no
        memory limit for $range yet (see test_pipeline_known_issues), so a huge range would only
        measure how the machine copes with running out of memory."""
        g = self
        start = g.pick([0, -5, 3, 1.5, "x", None, Int64(-2 ** 63), "$a"])
        end = g.pick([10, 1000, 10 ** 5, -10, 2 ** 31 - 1, Int64(2 ** 62), 1e15, float("nan"), None, "$a"])
        step = g.pick([1, 2, -1, 0, 1.5, None, "x", 10 ** 9, Int64(2 ** 62)])
        nums = [v for v in (start, end, step) if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if len(nums) == 3 and all(math.isfinite(v) for v in nums) and step != 0 and (end - start) / step > 1e5:
            step = g.pick([0, -1, "x"])
        return [start, end, step][:g.pick([1, 2, 3, 3, 3, 4])] + ([1] if g.chance(0.05) else [])

    def _named_arg(self, op, name, depth):
        g = self
        if name in ("as",):
            return g.pick(["x", "this", "", "$x", "ROOT", "CURRENT", "a.b", "X", 1])
        if name == "vars":
            return g.maybe(lambda: {g.pick(["x", "y", "ROOT", "", "$x", "CURRENT", "a.b", "_x", "X"]): g.expr(depth + 1)})
        if name == "branches":
            return g.maybe(lambda: [g.maybe(lambda: {"case": g.expr(depth + 1), "then": g.expr(depth + 1)})
                                    for _ in range(g.r.randrange(0, 3))])
        if name in ("unit",):
            return g.maybe(lambda: g.pick(["day", "hour", "year", "week", "quarter", "millisecond", "fortnight", ""]))
        if name in ("to",):
            return g.maybe(lambda: g.pick(["int", "long", "double", "decimal", "string", "bool", "date", "objectId",
                                           1, 2, 16, 18, 19, 8, 7, "bogus", 100]))
        if name in ("timezone",):
            return g.pick(["UTC", "+01:00", "America/New_York", "Bogus/Zone", "+99:99", "-", "", 1, None])
        if name in ("format",):
            return g.pick(["%Y-%m-%d", "%", "%Q", "%%", "%Y" * 1000, "", 1, None])
        if name in ("sortBy",):
            return g.maybe(lambda: g.pick([{"a": 1}, {"a": 0}, {"a": "x"}, 1, -1, {}, {"a": {"$meta": "textScore"}}]))
        if name in ("n", "limit", "p", "place", "binSize", "amount"):
            return g.maybe(lambda: g.pick([g.number(), [0.5], [2, 0.5], "$a"]))
        if name == "method":
            return g.pick(["approximate", "continuous", "bogus", 1])
        if name in ("regex",):
            return g.pick([g.pick(self.REGEXES), Regex(g.pick(self.REGEXES), g.regex_options()), 1])
        if name == "options":
            return g.regex_options()
        return g.expr(depth + 1)

    # -- projection, sort, update, index specs
    def projection(self, depth=0):
        g = self
        out = {}
        for _ in range(g.r.randrange(0, 4)):
            f = g.field()
            if g.chance(0.15):
                f = g.pick(["a.$", "c.$", "$a", "a.$.b", "_id", "a.b.$", "$"])
            out[f] = g.pick([0, 1, True, False, -1, 2, "x", g.expr(depth + 1), {"$slice": g.maybe(
                lambda: g.pick([g.number(), [g.number(), g.number()], [1, 2, 3], []]))},
                {"$elemMatch": g.filter(depth + 1)}, {"$meta": g.pick(["textScore", "indexKey", "searchScore",
                                                                       "bogus", 1])}, {}, {"$bogus": 1}, g.odd()])
        return out

    def sort(self):
        g = self
        out = {}
        for _ in range(g.r.randrange(0, 4)):
            out[g.field()] = g.pick([1, -1, 1, -1, 0, 2, "asc", -1.0, float("nan"), True, None, {"$meta": "textScore"},
                                    {"$meta": "randVal"}, {"$meta": "bogus"}, {}, [1], g.odd()])
        return out

    UPDATE_OPS = ["$set", "$unset", "$inc", "$mul", "$min", "$max", "$rename", "$push", "$addToSet", "$pop", "$pull",
                  "$pullAll", "$currentDate", "$setOnInsert", "$bit", "$bogus", "$pushAll", "$each", ""]

    def update_arg(self, op, depth):
        g = self
        if op in ("$push", "$addToSet") and g.chance(0.6):
            mods = {"$each": g.maybe(lambda: [g.value(depth + 1) for _ in range(g.r.randrange(0, 4))])}
            if op == "$push":
                for m in ("$slice", "$sort", "$position"):
                    if g.chance(0.5):
                        mods[m] = g.pick([g.number(), {"a": 1}, {"a": 0}, {"": 1}, {"a.b": -1}, "x", {}, g.odd()])
                if g.chance(0.1):
                    mods["$bogus"] = 1
            return mods
        if op == "$bit":
            return g.maybe(lambda: {g.pick(["and", "or", "xor", "bogus", "$and"]): g.pick([1, Int64(5), 1.5, "x", -1])})
        if op == "$currentDate":
            return g.pick([True, False, {"$type": g.pick(["date", "timestamp", "bogus", 1])}, {}, {"$bogus": 1}, 1])
        if op == "$rename":
            return g.maybe(lambda: g.field())
        if op == "$pull":
            return g.pick([g.value(depth + 1), g.filter(depth + 1), {g.pick(self.QUERY_OPS): g.value(depth + 1)}])
        if op == "$pop":
            return g.maybe(lambda: g.pick([1, -1, 0, 2]))
        if op in ("$inc", "$mul"):
            return g.maybe(g.number)
        return g.value(depth + 1)

    def update(self, depth=0):
        g = self
        roll = g.r.random()
        if roll < 0.15:  # replacement
            return {g.field(): g.value(depth + 1) for _ in range(g.r.randrange(0, 3))}
        if roll < 0.3:  # pipeline-style update
            return [g.pick([{"$set": {g.field(): g.expr(depth + 1)}}, {"$unset": g.maybe(g.field)},
                            {"$addFields": {g.field(): g.expr(depth + 1)}}, {"$project": g.projection(depth + 1)},
                            {"$replaceRoot": {"newRoot": g.expr(depth + 1)}}, {"$replaceWith": g.expr(depth + 1)},
                            {"$match": g.filter(depth + 1)}, {"$group": {"_id": 1}}, g.odd()])
                    for _ in range(g.r.randrange(0, 3))]
        out = {}
        for _ in range(g.r.randrange(1, 3)):
            op = g.pick(self.UPDATE_OPS)
            out[op] = g.maybe(lambda: {g.field(): g.update_arg(op, depth + 1) for _ in range(g.r.randrange(0, 3))})
        return out

    def array_filters(self):
        g = self
        return g.maybe(lambda: [g.pick([{"i": g.value()}, {"i.b": {"$gt": g.number()}}, {"j": 1}, {}, {"i": 1, "j": 2},
                                        {"$and": [{"i": 1}]}, {"I": 1}, {"i.": 1}, g.odd()])
                                for _ in range(g.r.randrange(0, 3))])

    INDEX_TYPES = [1, -1, 1, "text", "2dsphere", "2d", "hashed", "geoHaystack", "bogus", 0, 1.5, -0.5, float("nan"),
                   "", {}, True, Decimal128("1"), Int64(1)]
    INDEX_OPTIONS = ["unique", "sparse", "partialFilterExpression", "expireAfterSeconds", "hidden", "collation",
                     "weights", "default_language", "language_override", "textIndexVersion", "2dsphereIndexVersion",
                     "v", "background", "wildcardProjection", "bits", "min", "max", "storageEngine", "bogus", "ns",
                     "dropDups", "bucketSize", "prepareUnique", "clustered"]

    def index_spec(self, depth=0):
        g = self
        key = {g.pick(["a", "b", "a.b", "$**", "a.$**", "c", "_id", "", "$a", "d.e", "a..b", "s"]): g.pick(self.INDEX_TYPES)
               for _ in range(g.r.randrange(0, 3))}
        spec = {"key": g.maybe(lambda: key), "name": g.maybe(lambda: g.pick(["i" + str(g.r.randrange(5)), "", "_id_",
                                                                             "a" * 200, "$x", "*"]))}
        for _ in range(g.r.randrange(0, 3)):
            opt = g.pick(self.INDEX_OPTIONS)
            if opt == "partialFilterExpression":
                spec[opt] = g.filter(depth + 1)
            elif opt == "wildcardProjection":
                spec[opt] = g.projection(depth + 1)
            else:
                spec[opt] = g.value(depth + 1)
        if g.chance(0.1):
            del spec[g.pick(["key", "name"])]
        return spec

    # -- aggregation stages
    ACCUMULATORS = ["$sum", "$avg", "$first", "$last", "$max", "$min", "$push", "$addToSet", "$stdDevPop",
                    "$stdDevSamp", "$mergeObjects", "$count", "$top", "$bottom", "$topN", "$bottomN", "$firstN",
                    "$lastN", "$maxN", "$minN", "$median", "$percentile", "$bogus", "$add", "$accumulator"]

    def accumulator(self, depth):
        g = self
        acc = g.pick(self.ACCUMULATORS)
        if acc in self.EXPR_OBJ_ARGS or acc in ("$bottomN", "$topN", "$firstN", "$lastN", "$maxN", "$minN"):
            arg = {k: g.maybe(lambda: g.expr(depth + 1)) for k in ["n", "input", "sortBy", "output", "p", "method"]
                   if g.chance(0.6)}
        elif acc == "$count":
            arg = g.pick([{}, {"x": 1}, 1])
        else:
            arg = g.expr(depth + 1)
        return {acc: arg}

    def window_spec(self, depth):
        g = self
        out = self.accumulator(depth)
        if g.chance(0.3):
            out = {g.pick(["$rank", "$denseRank", "$documentNumber", "$shift", "$derivative", "$integral",
                           "$expMovingAvg", "$covariancePop", "$locf", "$linearFill"]): g.maybe(lambda: {})}
        if g.chance(0.6):
            out["window"] = g.maybe(lambda: {g.pick(["documents", "range"]): g.maybe(lambda: [
                g.pick(["unbounded", "current", -1, 0, 1, 2 ** 40, "bogus", 1.5]),
                g.pick(["unbounded", "current", -1, 0, 1, -2 ** 40, "bogus"])][:g.pick([0, 1, 2, 2, 2])]),
                **({"unit": g.pick(["day", "bogus", 1])} if g.chance(0.2) else {})})
        return out

    STAGES = ["$match", "$project", "$addFields", "$set", "$unset", "$group", "$sort", "$limit", "$skip", "$unwind",
              "$lookup", "$graphLookup", "$facet", "$bucket", "$bucketAuto", "$replaceRoot", "$replaceWith", "$count",
              "$sample", "$sortByCount", "$unionWith", "$redact", "$densify", "$fill", "$setWindowFields", "$out",
              "$merge", "$geoNear", "$collStats", "$indexStats", "$documents", "$changeStream", "$listSessions",
              "$planCacheStats", "$currentOp", "$search", "$bogus", "match", "$limit"]

    def stage(self, depth=0):
        g = self
        s = g.pick(self.STAGES)
        e = lambda: g.expr(depth + 1)  # noqa: E731
        coll = lambda: g.maybe(lambda: g.pick([OTHER, COLL, "missing", "", "$x", "system.bogus"]))  # noqa: E731
        if s == "$match":
            a = g.filter(depth + 1)
        elif s == "$project":
            a = g.projection(depth + 1)
        elif s in ("$addFields", "$set"):
            a = {g.field(): e() for _ in range(g.r.randrange(0, 3))}
        elif s == "$unset":
            a = g.maybe(lambda: g.pick([g.field(), [g.field(), g.field()], []]))
        elif s == "$group":
            a = {f: g.accumulator(depth + 1) for f in [g.field() for _ in range(g.r.randrange(0, 3))]}
            if g.chance(0.85):
                a["_id"] = g.maybe(lambda: g.pick([None, e(), {"k": e()}]))
        elif s == "$sort":
            a = g.sort()
        elif s in ("$limit", "$skip"):
            a = g.maybe(g.number)
        elif s == "$unwind":
            a = g.maybe(lambda: g.pick(["$c", "$a", "c", "$", "$a.b", {"path": g.pick(["$c", "c", 1, "$"]),
                                                                      "includeArrayIndex": g.pick(["i", "$i", "", 1]),
                                                                      "preserveNullAndEmptyArrays": g.plain()}]))
        elif s in ("$lookup", "$graphLookup"):
            names = (["from", "localField", "foreignField", "as", "let", "pipeline"] if s == "$lookup" else
                     ["from", "startWith", "connectFromField", "connectToField", "as", "maxDepth", "depthField",
                      "restrictSearchWithMatch"])
            a = {}
            for n in names:
                if g.chance(0.75):
                    if n == "from":
                        a[n] = coll()
                    elif n == "pipeline":
                        a[n] = g.pipeline(depth + 1)
                    elif n in ("let",):
                        a[n] = {"x": e()}
                    elif n == "startWith":
                        a[n] = e()
                    elif n == "restrictSearchWithMatch":
                        a[n] = g.filter(depth + 1)
                    elif n == "maxDepth":
                        a[n] = g.maybe(g.number)
                    else:
                        a[n] = g.maybe(g.field)
        elif s == "$facet":
            a = g.maybe(lambda: {g.pick(["f", "g", "", "$f", "a.b"]): g.pipeline(depth + 1)
                                 for _ in range(g.r.randrange(0, 3))})
        elif s == "$bucket":
            a = {"groupBy": e(), "boundaries": g.maybe(lambda: sorted([g.r.randrange(-5, 5) for _ in range(
                g.r.randrange(0, 4))]))}
            if g.chance(0.5):
                a["default"] = g.plain()
            if g.chance(0.5):
                a["output"] = {"n": g.accumulator(depth + 1)}
        elif s == "$bucketAuto":
            a = {"groupBy": e(), "buckets": g.maybe(g.number)}
            if g.chance(0.3):
                a["granularity"] = g.pick(["R5", "POWERSOF2", "1-2-5", "bogus", 1])
        elif s == "$replaceRoot":
            a = g.maybe(lambda: {"newRoot": e()})
        elif s in ("$replaceWith", "$redact", "$sortByCount"):
            a = e()
        elif s == "$count":
            a = g.maybe(lambda: g.pick(["n", "", "$n", "a.b", "_id"]))
        elif s == "$sample":
            a = g.maybe(lambda: {"size": g.maybe(g.number)})
        elif s == "$unionWith":
            a = g.maybe(lambda: g.pick([OTHER, {"coll": coll(), "pipeline": g.pipeline(depth + 1)}]))
        elif s == "$densify":
            # Steps and bounds stay small, and "n" only ever holds small numbers in the seeded
            # data: $densify has no limit on generated documents yet (see test_pipeline_known_issues).
            a = {"field": g.maybe(lambda: "n"), "range": g.maybe(lambda: {
                "step": g.maybe(lambda: g.pick([1, 2, 0.5, 3, 0, -1, Int64(2 ** 62), 1e18, float("nan")])),
                "bounds": g.maybe(lambda: g.pick(["full", "partition", [0, 10], [10, 0], [0, 10000]])),
                **({"unit": g.pick(["day", "bogus", 1])} if g.chance(0.3) else {})})}
            if g.chance(0.3):
                a["partitionByFields"] = g.maybe(lambda: ["b"])
        elif s == "$fill":
            a = {"output": g.maybe(lambda: {"a": g.maybe(lambda: g.pick([{"value": e()}, {"method": g.pick(
                ["locf", "linear", "bogus", 1])}]))})}
            if g.chance(0.5):
                a["sortBy"] = g.sort()
            if g.chance(0.3):
                a[g.pick(["partitionBy", "partitionByFields"])] = g.maybe(e)
        elif s == "$setWindowFields":
            a = {"output": g.maybe(lambda: {g.field(): g.window_spec(depth + 1)})}
            if g.chance(0.6):
                a["sortBy"] = g.sort()
            if g.chance(0.4):
                a["partitionBy"] = e()
        elif s == "$out":
            a = g.maybe(lambda: g.pick(["outc", {"db": FUZZ_DB, "coll": g.maybe(lambda: "outc")}, "", "system.x",
                                        {"coll": "outc"}]))
        elif s == "$merge":
            a = g.maybe(lambda: {"into": g.pick(["mergec", {"db": FUZZ_DB, "coll": "mergec"}, 1, ""]),
                                 **{k: g.maybe(lambda: v) for k, v in [
                                     ("on", g.pick(["_id", ["a"], "a"])),
                                     ("whenMatched", g.pick(["replace", "keepExisting", "merge", "fail", "bogus",
                                                             [{"$set": {"x": 1}}]])),
                                     ("whenNotMatched", g.pick(["insert", "discard", "fail", "bogus"]))]
                                    if g.chance(0.5)}})
        elif s == "$geoNear":
            a = {k: g.maybe(lambda: v) for k, v in [("near", [0, 0]), ("distanceField", "dist"), ("spherical", True),
                                                    ("maxDistance", 10), ("query", g.filter(depth + 1)),
                                                    ("key", "loc")] if g.chance(0.6)}
        elif s == "$documents":
            a = g.maybe(lambda: g.pick([[{"a": 1}, {"a": 2}], e(), []]))
        elif s == "$currentOp":
            a = g.maybe(lambda: {g.pick(["allUsers", "idleConnections", "localOps", "bogus"]): g.plain()})
        else:
            a = g.maybe(lambda: {})
        stage = {s: a}
        if g.chance(0.03):
            stage["$extra"] = 1  # two fields in one stage
        return stage

    def pipeline(self, depth=0):
        g = self
        if depth > 3:
            return []
        if g.chance(0.04):
            return g.odd()
        return [g.stage(depth) if not g.chance(0.03) else g.odd() for _ in range(g.r.randrange(0, 4))]


# ---------------------------------------------------------------------------------------------
# Commands: name -> (database, [(field, valid value), ...]); the first pair is the command.
# Admin-only commands run against "admin"; everything else against FUZZ_DB.

def command_table():
    lsid = {"id": uuid.UUID("11111111-2222-3333-4444-555555555555")}
    return {
        "aggregate": ("fuzz", [("aggregate", COLL), ("pipeline", [{"$match": {"a": 1}}]), ("cursor", {}),
                               ("explain", False), ("allowDiskUse", True), ("hint", {"a": 1}), ("let", {"x": 1}),
                               ("collation", {"locale": "simple"}), ("bypassDocumentValidation", False)]),
        "buildInfo": ("fuzz", [("buildInfo", 1)]),
        "collStats": ("fuzz", [("collStats", COLL), ("scale", 1)]),
        "configureFailPoint": ("admin", [("configureFailPoint", "failPointTestPoint"), ("mode", "off"),
                                         ("data", {})]),
        "connectionStatus": ("fuzz", [("connectionStatus", 1), ("showPrivileges", True)]),
        "count": ("fuzz", [("count", COLL), ("query", {"a": 1}), ("limit", 0), ("skip", 0), ("hint", {"_id": 1})]),
        "create": ("fuzz", [("create", "newc"), ("capped", False), ("size", 4096), ("max", 10), ("validator", {}),
                            ("validationLevel", "strict"), ("validationAction", "error"), ("viewOn", COLL),
                            ("pipeline", []), ("timeseries", {"timeField": "t"}), ("collation", {"locale": "simple"}),
                            ("expireAfterSeconds", 10), ("clusteredIndex", {"key": {"_id": 1}, "unique": True}),
                            ("storageEngine", {}), ("indexOptionDefaults", {})]),
        # commitQuorum is refused on a standalone server: not in the valid request.
        "createIndexes": ("fuzz", [("createIndexes", COLL), ("indexes", [{"key": {"b": 1}, "name": "b_1"}]),
                                   ("ignoreUnknownIndexOptions", False)]),
        "currentOp": ("admin", [("currentOp", 1), ("$all", True), ("active", True), ("$ownOps", False)]),
        "dbStats": ("fuzz", [("dbStats", 1), ("scale", 1), ("freeStorage", 0)]),
        "delete": ("fuzz", [("delete", COLL), ("deletes", [{"q": {"a": -100}, "limit": 0}]), ("ordered", True),
                            ("let", {})]),
        "dropIndexes": ("fuzz", [("dropIndexes", COLL), ("index", "nosuch_1")]),
        "deleteIndexes": ("fuzz", [("deleteIndexes", COLL), ("index", "nosuch_1")]),
        # hint on distinct is new in 7.1 (unknown to 7.0).
        "distinct": ("fuzz", [("distinct", COLL), ("key", "a"), ("query", {}), ("collation", {"locale": "simple"})]),
        "drop": ("fuzz", [("drop", "tmp")]),
        "dropDatabase": ("fuzz", [("dropDatabase", 1)]),
        "endSessions": ("fuzz", [("endSessions", [lsid])]),
        "explain": ("fuzz", [("explain", {"find": COLL, "filter": {}}), ("verbosity", "queryPlanner")]),
        "find": ("fuzz", [("find", COLL), ("filter", {}), ("sort", {"a": 1}), ("projection", {"a": 1}),
                          ("hint", {"_id": 1}), ("skip", 0), ("limit", 5), ("batchSize", 2), ("singleBatch", True),
                          ("noCursorTimeout", False), ("tailable", False), ("awaitData", False), ("min", {}),
                          ("max", {}), ("returnKey", False), ("showRecordId", False), ("allowDiskUse", True),
                          ("let", {"x": 1}), ("collation", {"locale": "simple"})]),
        "findAndModify": ("fuzz", [("findAndModify", COLL), ("query", {"_id": 1}), ("update", {"$set": {"x": 1}}),
                                   ("new", True), ("fields", {"x": 1}), ("sort", {"_id": 1}), ("upsert", False),
                                   ("remove", False), ("arrayFilters", []), ("bypassDocumentValidation", False),
                                   ("hint", {"_id": 1}), ("let", {})]),
        "fsync": ("admin", [("fsync", 1), ("lock", False)]),
        "getCmdLineOpts": ("admin", [("getCmdLineOpts", 1)]),
        "getDefaultRWConcern": ("admin", [("getDefaultRWConcern", 1), ("inMemory", True)]),
        "getLog": ("admin", [("getLog", "global")]),
        "getMore": ("fuzz", [("getMore", Int64(12345)), ("collection", COLL), ("batchSize", 1), ("maxTimeMS", 100)]),
        "getParameter": ("admin", [("getParameter", 1), ("logLevel", 1), ("showDetails", False),
                                   ("allParameters", False)]),
        "hello": ("fuzz", [("hello", 1), ("helloOk", True), ("client", {"application": {"name": "fuzz"}}),
                           ("compression", ["zlib"]), ("saslSupportedMechs", "admin.u"),
                           ("topologyVersion", {"processId": ObjectId("000000000000000000000001"),
                                                "counter": Int64(0)}), ("maxAwaitTimeMS", 10),
                           ("loadBalanced", False)]),
        "hostInfo": ("fuzz", [("hostInfo", 1)]),
        "insert": ("fuzz", [("insert", COLL), ("documents", [{"fz": 1}]), ("ordered", True),
                            ("bypassDocumentValidation", False)]),
        "killAllSessions": ("fuzz", [("killAllSessions", [])]),
        "killAllSessionsByPattern": ("fuzz", [("killAllSessionsByPattern", [{"lsid": lsid}])]),
        "killCursors": ("fuzz", [("killCursors", COLL), ("cursors", [Int64(1)])]),
        "killOp": ("admin", [("killOp", 1), ("op", 123456789)]),
        "killSessions": ("fuzz", [("killSessions", [lsid])]),
        "listCollections": ("fuzz", [("listCollections", 1), ("filter", {}), ("nameOnly", True),
                                     ("authorizedCollections", False), ("cursor", {})]),
        "listCommands": ("fuzz", [("listCommands", 1)]),
        "listDatabases": ("admin", [("listDatabases", 1), ("nameOnly", True), ("filter", {"name": FUZZ_DB}),
                                    ("authorizedDatabases", False)]),
        "listIndexes": ("fuzz", [("listIndexes", COLL), ("cursor", {})]),
        "logRotate": ("admin", [("logRotate", 1)]),
        "ping": ("fuzz", [("ping", 1)]),
        "profile": ("fuzz", [("profile", -1), ("slowms", 100), ("sampleRate", 1.0), ("filter", {"a": 1})]),
        "refreshSessions": ("fuzz", [("refreshSessions", [lsid])]),
        "renameCollection": ("admin", [("renameCollection", FUZZ_DB + ".tmp"), ("to", FUZZ_DB + ".tmp2"),
                                       ("dropTarget", False)]),
        "serverStatus": ("fuzz", [("serverStatus", 1), ("repl", 0), ("metrics", 0), ("opcounters", 1)]),
        "setFeatureCompatibilityVersion": ("admin", [("setFeatureCompatibilityVersion", "7.0"), ("confirm", True)]),
        "setParameter": ("admin", [("setParameter", 1), ("logLevel", 0)]),
        # shutdown only ever goes to a non-admin database, where it must be refused.
        "shutdown": ("fuzz", [("shutdown", 1), ("force", True), ("timeoutSecs", 0)]),
        "startSession": ("fuzz", [("startSession", 1)]),
        "update": ("fuzz", [("update", COLL), ("updates", [{"q": {"_id": 1}, "u": {"$set": {"x": 1}}, "upsert": False,
                                                            "multi": False, "arrayFilters": [], "hint": {},
                                                            "collation": {"locale": "simple"}}]),
                            ("ordered", True), ("let", {}), ("bypassDocumentValidation", False)]),
        "validate": ("fuzz", [("validate", COLL), ("full", False), ("background", False)]),
        # maxTimeMS bounds the wait; the fuzzer never changes it for this command.
        "waitForFailPoint": ("admin", [("waitForFailPoint", "failPointTestPoint"), ("timesEntered", 0),
                                       ("maxTimeMS", 50)]),
        "whatsmyuri": ("fuzz", [("whatsmyuri", 1)]),
    }


# Aliases that share an implementation with a command above.
ALIASES = {"buildinfo": "buildInfo", "collstats": "collStats", "dbstats": "dbStats", "findandmodify": "findAndModify",
           "isMaster": "hello", "ismaster": "hello"}

GENERIC_ARGS = {
    "maxTimeMS": [-1, "x", 2 ** 40, 1.5, float("nan"), None, Int64(2 ** 63 - 1), Decimal128("1e400"), 0],
    "comment": [{"a": 1}, "c", 1, [], nested(190)],
    "readConcern": ["x", {}, {"level": 5}, {"level": "bogus"}, {"level": "snapshot"}, {"afterClusterTime": 1},
                    {"level": "majority", "x": 1}, {"atClusterTime": Timestamp(1, 1)}],
    "writeConcern": ["x", {}, {"w": -1}, {"w": "bogus"}, {"w": 0}, {"w": 2}, {"wtimeout": "x"}, {"j": "x"},
                     {"w": "majority", "j": True, "wtimeout": -5}, {"w": float("nan")}, {"fsync": "x"}],
    "lsid": ["x", {}, {"id": 1}, {"id": uuid.UUID(int=1), "uid": 5}, {"id": Binary(b"short", 4)}],
    "txnNumber": [Int64(1), "x", -1],
    "autocommit": [False, "x"],
    "startTransaction": [True, 1],
    "$readPreference": ["x", {"mode": 1}, {"mode": "bogus"}, {"mode": "secondary", "maxStalenessSeconds": -1}],
    "apiVersion": [1, "2", "1", ""],
    "apiStrict": ["x", True],
    "apiDeprecationErrors": [5],
    "$clusterTime": ["x", {"clusterTime": 1}],
    "collation": ["x", {"locale": 1}, {"locale": "fr"}, {}, {"locale": "simple", "strength": 9}],
    "$db": [1],  # a second $db (duplicate) is appended as a raw duplicate field
    "bogusField": [1],
    "": [1],
    "$bogus": [1],
}
