/*
 * c_client_crud: a black-box CRUD check of mongod through libmongoc 1.23.
 *
 * Usage: c_client_crud <mongodb-uri>      (e.g. mongodb://127.0.0.1:27017/?compressors=zstd)
 *
 * Runs insert (one and many), find with filter/sort/limit/projection, update (one, many,
 * upsert), replace, delete, count, createIndex with a unique violation, aggregate, and
 * checks every result. Exits 0 when all checks pass; otherwise prints each failed check to
 * stderr and exits 1 (2 for bad usage or when the server cannot be reached).
 */
#include <mongoc/mongoc.h>
#include <stdio.h>
#include <string.h>

static int g_failures = 0;
static int g_checks = 0;

#define CHECK(cond, ...)                                                 \
    do {                                                                 \
        g_checks++;                                                      \
        if (!(cond)) {                                                   \
            g_failures++;                                                \
            fprintf(stderr, "FAILED %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                \
            fprintf(stderr, "\n");                                       \
        }                                                                \
    } while (0)

#define CHECK_OK(ok, error, what) CHECK((ok), "%s: %s (domain %u, code %u)", (what), (error).message, \
                                        (error).domain, (error).code)

static int64_t count_docs(mongoc_collection_t* coll, const bson_t* filter) {
    bson_error_t error;
    int64_t n = mongoc_collection_count_documents(coll, filter, NULL, NULL, NULL, &error);
    CHECK(n >= 0, "count_documents: %s", error.message);
    return n;
}

/* Reads the int32/int64/double field `key` of the first document matching `filter`. */
static int64_t field_of(mongoc_collection_t* coll, const bson_t* filter, const char* key, bool* found) {
    const bson_t* doc;
    bson_iter_t it;
    int64_t v = 0;
    *found = false;
    mongoc_cursor_t* cursor = mongoc_collection_find_with_opts(coll, filter, NULL, NULL);
    if (mongoc_cursor_next(cursor, &doc) && bson_iter_init_find(&it, doc, key) && BSON_ITER_HOLDS_NUMBER(&it)) {
        v = bson_iter_as_int64(&it);
        *found = true;
    }
    mongoc_cursor_destroy(cursor);
    return v;
}

static int64_t reply_int(const bson_t* reply, const char* key) {
    bson_iter_t it;
    if (bson_iter_init_find(&it, reply, key) && BSON_ITER_HOLDS_NUMBER(&it))
        return bson_iter_as_int64(&it);
    return -1;
}

static void test_ping_and_hello(mongoc_client_t* client) {
    bson_error_t error;
    bson_t reply;
    bson_t* cmd = BCON_NEW("ping", BCON_INT32(1));
    bool ok = mongoc_client_command_simple(client, "admin", cmd, NULL, &reply, &error);
    CHECK_OK(ok, error, "ping");
    bson_destroy(&reply);
    bson_destroy(cmd);

    cmd = BCON_NEW("buildInfo", BCON_INT32(1));
    ok = mongoc_client_command_simple(client, "admin", cmd, NULL, &reply, &error);
    CHECK_OK(ok, error, "buildInfo");
    bson_iter_t it;
    CHECK(ok && bson_iter_init_find(&it, &reply, "version") && BSON_ITER_HOLDS_UTF8(&it) &&
              strncmp(bson_iter_utf8(&it, NULL), "7.0.", 4) == 0,
          "buildInfo.version should be 7.0.x");
    bson_destroy(&reply);
    bson_destroy(cmd);
}

static void test_insert_find(mongoc_collection_t* coll) {
    bson_error_t error;
    bson_t reply;
    bson_t* doc = BCON_NEW("_id", BCON_INT32(1), "name", BCON_UTF8("one"), "n", BCON_INT32(1000));
    bool ok = mongoc_collection_insert_one(coll, doc, NULL, &reply, &error);
    CHECK_OK(ok, error, "insert_one");
    CHECK(reply_int(&reply, "insertedCount") == 1, "insertedCount should be 1");
    bson_destroy(&reply);
    bson_destroy(doc);

    /* insert_many of 500 documents */
    bson_t* docs[500];
    for (int i = 0; i < 500; i++) {
        docs[i] = BCON_NEW("_id", BCON_INT32(100 + i), "n", BCON_INT32(i), "grp", BCON_INT32(i % 5),
                           "text", BCON_UTF8("the quick brown fox jumps over the lazy dog"));
    }
    ok = mongoc_collection_insert_many(coll, (const bson_t**)docs, 500, NULL, &reply, &error);
    CHECK_OK(ok, error, "insert_many");
    CHECK(reply_int(&reply, "insertedCount") == 500, "insertedCount should be 500");
    bson_destroy(&reply);
    for (int i = 0; i < 500; i++)
        bson_destroy(docs[i]);

    /* duplicate _id */
    doc = BCON_NEW("_id", BCON_INT32(1));
    ok = mongoc_collection_insert_one(coll, doc, NULL, &reply, &error);
    CHECK(!ok && error.code == 11000, "duplicate _id should fail with 11000, got %u (%s)", error.code, error.message);
    bson_destroy(&reply);
    bson_destroy(doc);

    bson_t empty = BSON_INITIALIZER;
    CHECK(count_docs(coll, &empty) == 501, "501 documents expected");

    /* find with filter, sort, skip, limit, projection; walk every batch */
    bson_t* filter = BCON_NEW("grp", BCON_INT32(2));
    bson_t* opts = BCON_NEW("sort", "{", "n", BCON_INT32(-1), "}", "projection", "{", "n", BCON_INT32(1), "_id",
                            BCON_INT32(0), "}", "batchSize", BCON_INT32(7));
    mongoc_cursor_t* cursor = mongoc_collection_find_with_opts(coll, filter, opts, NULL);
    const bson_t* d;
    int seen = 0;
    int32_t last = INT32_MAX;
    bool sorted = true, projected = true;
    while (mongoc_cursor_next(cursor, &d)) {
        bson_iter_t it;
        if (!bson_iter_init_find(&it, d, "n")) {
            projected = false;
            continue;
        }
        int32_t n = bson_iter_int32(&it);
        if (n > last)
            sorted = false;
        last = n;
        if (bson_count_keys(d) != 1)
            projected = false;
        seen++;
    }
    CHECK(!mongoc_cursor_error(cursor, &error), "cursor error: %s", error.message);
    CHECK(seen == 100, "find grp=2 should return 100 documents, got %d", seen);
    CHECK(sorted, "results should be sorted by n descending");
    CHECK(projected, "results should hold only n");
    mongoc_cursor_destroy(cursor);
    bson_destroy(opts);
    bson_destroy(filter);

    /* n is 0..499 in the bulk documents (and 1000 in _id 1) */
    filter = BCON_NEW("n", "{", "$gte", BCON_INT32(10), "$lt", BCON_INT32(20), "}");
    opts = BCON_NEW("skip", BCON_INT64(2), "limit", BCON_INT64(3), "sort", "{", "n", BCON_INT32(1), "}");
    cursor = mongoc_collection_find_with_opts(coll, filter, opts, NULL);
    int expected = 12;
    seen = 0;
    while (mongoc_cursor_next(cursor, &d)) {
        bson_iter_t it;
        CHECK(bson_iter_init_find(&it, d, "n") && bson_iter_int32(&it) == expected, "skip/limit order");
        expected++;
        seen++;
    }
    CHECK(seen == 3, "skip 2 limit 3 should return 3 documents, got %d", seen);
    mongoc_cursor_destroy(cursor);
    bson_destroy(opts);
    bson_destroy(filter);
}

static void test_update_replace_delete(mongoc_collection_t* coll) {
    bson_error_t error;
    bson_t reply;
    bool found;

    bson_t* filter = BCON_NEW("_id", BCON_INT32(1));
    bson_t* update = BCON_NEW("$inc", "{", "n", BCON_INT32(5), "}", "$set", "{", "tag", BCON_UTF8("x"), "}");
    bool ok = mongoc_collection_update_one(coll, filter, update, NULL, &reply, &error);
    CHECK_OK(ok, error, "update_one");
    CHECK(reply_int(&reply, "matchedCount") == 1 && reply_int(&reply, "modifiedCount") == 1, "update_one counts");
    bson_destroy(&reply);
    CHECK(field_of(coll, filter, "n", &found) == 1005 && found, "n should be 1005 after $inc");
    bson_destroy(update);

    /* update_many */
    bson_t* many = BCON_NEW("grp", BCON_INT32(3));
    update = BCON_NEW("$set", "{", "flag", BCON_BOOL(true), "}");
    ok = mongoc_collection_update_many(coll, many, update, NULL, &reply, &error);
    CHECK_OK(ok, error, "update_many");
    CHECK(reply_int(&reply, "modifiedCount") == 100, "update_many should modify 100, got %lld",
          (long long)reply_int(&reply, "modifiedCount"));
    bson_destroy(&reply);
    bson_t* flagged = BCON_NEW("flag", BCON_BOOL(true));
    CHECK(count_docs(coll, flagged) == 100, "100 flagged documents");
    bson_destroy(flagged);
    bson_destroy(update);
    bson_destroy(many);

    /* upsert */
    bson_t* ufilter = BCON_NEW("_id", BCON_UTF8("upserted"));
    update = BCON_NEW("$set", "{", "n", BCON_INT32(7), "}");
    bson_t* opts = BCON_NEW("upsert", BCON_BOOL(true));
    ok = mongoc_collection_update_one(coll, ufilter, update, opts, &reply, &error);
    CHECK_OK(ok, error, "upsert");
    CHECK(reply_int(&reply, "upsertedCount") == 1, "upsertedCount should be 1");
    bson_destroy(&reply);
    CHECK(field_of(coll, ufilter, "n", &found) == 7 && found, "upserted document has n 7");
    bson_destroy(opts);
    bson_destroy(update);

    /* replace */
    bson_t* replacement = BCON_NEW("n", BCON_INT32(99), "replaced", BCON_BOOL(true));
    ok = mongoc_collection_replace_one(coll, ufilter, replacement, NULL, &reply, &error);
    CHECK_OK(ok, error, "replace_one");
    bson_destroy(&reply);
    CHECK(field_of(coll, ufilter, "n", &found) == 99 && found, "replaced document has n 99");
    bson_destroy(replacement);

    /* $inc on a string fails with TypeMismatch (14) */
    bson_t* bad = BCON_NEW("$inc", "{", "text", BCON_INT32(1), "}");
    bson_t* f100 = BCON_NEW("_id", BCON_INT32(100));
    ok = mongoc_collection_update_one(coll, f100, bad, NULL, &reply, &error);
    CHECK(!ok && error.code == 14, "$inc on a string should fail with 14, got %u (%s)", error.code, error.message);
    bson_destroy(&reply);
    bson_destroy(bad);
    bson_destroy(f100);

    /* delete_one / delete_many */
    ok = mongoc_collection_delete_one(coll, ufilter, NULL, &reply, &error);
    CHECK_OK(ok, error, "delete_one");
    CHECK(reply_int(&reply, "deletedCount") == 1, "deletedCount should be 1");
    bson_destroy(&reply);
    bson_t* grp4 = BCON_NEW("grp", BCON_INT32(4));
    ok = mongoc_collection_delete_many(coll, grp4, NULL, &reply, &error);
    CHECK_OK(ok, error, "delete_many");
    CHECK(reply_int(&reply, "deletedCount") == 100, "delete_many should delete 100");
    bson_destroy(&reply);
    CHECK(count_docs(coll, grp4) == 0, "no grp 4 documents left");
    bson_destroy(grp4);
    bson_destroy(ufilter);
    bson_destroy(filter);
}

static void test_indexes(mongoc_collection_t* coll) {
    bson_error_t error;
    bson_t reply;
    /* libmongoc 1.23 has no index model helper: send createIndexes itself. */
    bson_t* cmd = BCON_NEW("createIndexes", BCON_UTF8(mongoc_collection_get_name(coll)), "indexes", "[", "{", "key",
                           "{", "n", BCON_INT32(1), "}", "name", BCON_UTF8("n_1"), "unique", BCON_BOOL(true), "}",
                           "]");
    bool ok = mongoc_collection_write_command_with_opts(coll, cmd, NULL, &reply, &error);
    CHECK_OK(ok, error, "create unique index on n");
    CHECK(reply_int(&reply, "numIndexesAfter") == 2, "numIndexesAfter should be 2");
    bson_destroy(&reply);
    bson_destroy(cmd);

    /* list indexes: _id_ and n_1 */
    mongoc_cursor_t* cursor = mongoc_collection_find_indexes_with_opts(coll, NULL);
    const bson_t* d;
    int count = 0;
    bool has_n = false;
    while (mongoc_cursor_next(cursor, &d)) {
        bson_iter_t it;
        count++;
        if (bson_iter_init_find(&it, d, "name") && strcmp(bson_iter_utf8(&it, NULL), "n_1") == 0)
            has_n = true;
    }
    CHECK(!mongoc_cursor_error(cursor, &error), "listIndexes: %s", error.message);
    CHECK(count == 2 && has_n, "expected indexes _id_ and n_1, got %d", count);
    mongoc_cursor_destroy(cursor);

    /* unique violation: n = 3 exists (document _id 103) */
    bson_t* doc = BCON_NEW("_id", BCON_UTF8("dup"), "n", BCON_INT32(3));
    ok = mongoc_collection_insert_one(coll, doc, NULL, &reply, &error);
    CHECK(!ok && error.code == 11000, "unique index violation should fail with 11000, got %u (%s)", error.code,
          error.message);
    CHECK(strstr(error.message, "E11000") != NULL, "message should start with E11000: %s", error.message);
    bson_destroy(&reply);
    bson_destroy(doc);
}

static void test_aggregate(mongoc_collection_t* coll) {
    bson_error_t error;
    /* groups 0..3 remain with 100 documents each (group 4 was deleted) */
    bson_t* pipeline = BCON_NEW("pipeline", "[", "{", "$match", "{", "grp", "{", "$exists", BCON_BOOL(true), "}", "}",
                                "}", "{", "$group", "{", "_id", BCON_UTF8("$grp"), "cnt", "{", "$sum",
                                BCON_INT32(1), "}", "total", "{", "$sum", BCON_UTF8("$n"), "}", "}", "}", "{",
                                "$sort", "{", "_id", BCON_INT32(1), "}", "}", "]");
    mongoc_cursor_t* cursor = mongoc_collection_aggregate(coll, MONGOC_QUERY_NONE, pipeline, NULL, NULL);
    const bson_t* d;
    int groups = 0;
    while (mongoc_cursor_next(cursor, &d)) {
        bson_iter_t it;
        CHECK(bson_iter_init_find(&it, d, "_id") && bson_iter_as_int64(&it) == groups, "group order");
        CHECK(reply_int(d, "cnt") == 100, "each group has 100 documents, got %lld", (long long)reply_int(d, "cnt"));
        /* sum of n for i%5 == g over 0..499: 100*g + 5*(0+1+...+99) = 100g + 24750 */
        CHECK(reply_int(d, "total") == 100 * groups + 24750, "group %d total %lld", groups,
              (long long)reply_int(d, "total"));
        groups++;
    }
    CHECK(!mongoc_cursor_error(cursor, &error), "aggregate: %s", error.message);
    CHECK(groups == 4, "4 groups expected, got %d", groups);
    mongoc_cursor_destroy(cursor);
    bson_destroy(pipeline);
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s <mongodb-uri>\n", argv[0]);
        return 2;
    }
    mongoc_init();
    bson_error_t error;
    mongoc_uri_t* uri = mongoc_uri_new_with_error(argv[1], &error);
    if (!uri) {
        fprintf(stderr, "bad uri %s: %s\n", argv[1], error.message);
        return 2;
    }
    mongoc_client_t* client = mongoc_client_new_from_uri(uri);
    mongoc_client_set_error_api(client, MONGOC_ERROR_API_VERSION_2);
    mongoc_client_set_appname(client, "c_client_crud");

    bson_t* ping = BCON_NEW("ping", BCON_INT32(1));
    if (!mongoc_client_command_simple(client, "admin", ping, NULL, NULL, &error)) {
        fprintf(stderr, "cannot reach %s: %s\n", argv[1], error.message);
        return 2;
    }
    bson_destroy(ping);

    mongoc_database_t* database = mongoc_client_get_database(client, "c_client_crud");
    mongoc_database_drop_with_opts(database, NULL, &error);
    mongoc_collection_t* coll = mongoc_client_get_collection(client, "c_client_crud", "items");

    test_ping_and_hello(client);
    test_insert_find(coll);
    test_update_replace_delete(coll);
    test_indexes(coll);
    test_aggregate(coll);

    mongoc_database_drop_with_opts(database, NULL, &error);
    mongoc_collection_destroy(coll);
    mongoc_database_destroy(database);
    mongoc_client_destroy(client);
    mongoc_uri_destroy(uri);
    mongoc_cleanup();

    if (g_failures) {
        fprintf(stderr, "%d of %d checks failed\n", g_failures, g_checks);
        return 1;
    }
    printf("all %d checks passed\n", g_checks);
    return 0;
}
