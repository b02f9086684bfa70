/*
 * memvault.importers._chatgpt -- the ChatGPT importer's per-message loop, in C.
 *
 *   messages(order, nodes, ids, parents, children, times, own, fallback,
 *            roles, message_mapped, node_mapped, empty) -> (messages, extras)
 *       The PAM messages of one conversation, in `order`: exactly what
 *       `memvault.importers.chatgpt._messages` (the Python reference) returns.
 *       A message of the common shape (a text message with nothing the PAM
 *       message cannot hold as it is) is converted here; any other message is
 *       handed to `fallback(node, message) -> (pam, extra)`, the importer's own
 *       Python code, which words its warnings.  Every message then gets its
 *       ids, its time and the node members with no PAM home.
 *
 *   graph(mapping, created, updated) -> (kept, empty, parents, children, order,
 *                                          own, times) | None
 *       A conversation's message graph and each message's time, as
 *       `chatgpt._Graph` reads them, for the common graph (every child listed
 *       once by its parent); None for any other, which `_Graph` repairs.
 *
 *   message_ids(base, nodes) -> {node: id}
 *       The id of each message (`chatgpt._message_ids`), hashed with the
 *       hashlib SHA-1 object `base` the caller prepared.
 *
 *   iso(epoch) -> str
 *       Unix seconds (0 <= epoch < year 3001) as RFC 3339 UTC, microseconds
 *       rounded half to even and written only when there are any, as
 *       `memvault.importers.chatgpt.iso` writes them.
 *
 * A 300 MB export holds about 440,000 messages; converting them in Python
 * was most of what the reader processes of an import spent.
 *
 * Plain CPython C API, C99.
 */
#include "_chatgpt_common.h"

static PyObject *S_author, *S_role, *S_id, *S_metadata, *S_model_slug, *S_model,
    *S_attachments, *S_citations, *S_content, *S_content_type, *S_text, *S_parts,
    *S_type, *S_recipient, *S_assistant, *S_all, *S_empty, *S_provider_message_id,
    *S_raw_metadata, *S_message_id, *S_message, *S_parent, *S_parent_id,
    *S_children_ids, *S_created_at, *S_create_time, *S_provider_parent, *S_node, *S_children;

/* ----------------------------------------------------------------------
 * iso
 * ---------------------------------------------------------------------- */

static PyObject *
iso_of(double epoch)
{
    char text[ISO_SIZE];
    Py_ssize_t size = iso_text(epoch, text);
    return size < 0 ? NULL : PyUnicode_FromStringAndSize(text, size);
}

static PyObject *
iso(PyObject *module, PyObject *arg)
{
    double epoch = PyFloat_AsDouble(arg);
    if (epoch == -1.0 && PyErr_Occurred())
        return NULL;
    return iso_of(epoch);
}

/* ----------------------------------------------------------------------
 * One message of the common shape
 * ---------------------------------------------------------------------- */

typedef struct {
    PyObject *roles;          /* dict: provider role -> PAM role */
    PyObject *message_mapped; /* frozenset: message members with a PAM home */
    PyObject *node_mapped;    /* frozenset: node members with a PAM home */
    PyObject *empty;          /* tuple: author values not worth keeping */
} Tables;

/* `dict.get(key)`, borrowed, Py_None when absent; NULL only on error. */
static PyObject *
get(PyObject *dict, PyObject *key)
{
    PyObject *value = PyDict_GetItemWithError(dict, key);
    if (value == NULL && !PyErr_Occurred())
        return Py_None;
    return value;
}

static int
set_new(PyObject *dict, PyObject *key, PyObject *value)
{
    if (value == NULL)
        return -1;
    int status = PyDict_SetItem(dict, key, value);
    Py_DECREF(value);
    return status;
}

/* The author members kept in raw_metadata.author, if any is worth keeping:
   every member but the role when the role is kept as it was. */
static int
author_extra(PyObject *author, int role_changed, PyObject *empty, PyObject *raw_meta)
{
    if (PyDict_GET_SIZE(author) <= 1)
        return 0;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    int keep = 0;
    while (PyDict_Next(author, &pos, &key, &value)) {
        int other = PyObject_RichCompareBool(key, S_role, Py_NE);
        if (other < 0)
            return -1;
        if (other || role_changed) {
            int blank = PySequence_Contains(empty, value);
            if (blank < 0)
                return -1;
            if (!blank) {
                keep = 1;
                break;
            }
        }
    }
    if (!keep)
        return 0;
    PyObject *kept = PyDict_New();
    if (kept == NULL)
        return -1;
    pos = 0;
    while (PyDict_Next(author, &pos, &key, &value)) {
        int other = PyObject_RichCompareBool(key, S_role, Py_NE);
        if (other < 0 || ((other || role_changed) && PyDict_SetItem(kept, key, value) < 0)) {
            Py_DECREF(kept);
            return -1;
        }
    }
    return set_new(raw_meta, S_author, kept);
}

/* The PAM message of `message` if it has the common shape: 1 and *out set;
   0 when the importer's Python code must convert it; -1 on error. */
static int
common_message(PyObject *node, PyObject *message, const Tables *t, PyObject **out)
{
    PyObject *author = get(message, S_author);
    if (author == NULL)
        return -1;
    if (!PyDict_CheckExact(author))
        return 0;
    PyObject *role_value = get(author, S_role);
    if (role_value == NULL)
        return -1;
    if (!PyUnicode_CheckExact(role_value))
        return 0;
    PyObject *role = PyDict_GetItemWithError(t->roles, role_value);
    if (role == NULL)
        return PyErr_Occurred() ? -1 : 0;

    PyObject *metadata = get(message, S_metadata);
    if (metadata == NULL)
        return -1;
    if (PyDict_Check(metadata)) {
        /* Attachments and citations have PAM homes of their own: left to Python. */
        int has = PyDict_Contains(metadata, S_attachments);
        if (has == 0)
            has = PyDict_Contains(metadata, S_citations);
        if (has != 0)
            return has < 0 ? -1 : 0;
    }
    PyObject *content = get(message, S_content);
    if (content == NULL)
        return -1;
    PyObject *text = NULL; /* borrowed: the message's one text part, or NULL */
    if (content != Py_None) {
        if (!PyDict_CheckExact(content) || PyDict_GET_SIZE(content) != 2)
            return 0;
        PyObject *kind = get(content, S_content_type);
        if (kind == NULL)
            return -1;
        int is_text = PyObject_RichCompareBool(kind, S_text, Py_EQ);
        if (is_text <= 0)
            return is_text;
        PyObject *parts = get(content, S_parts);
        if (parts == NULL)
            return -1;
        if (!PyList_CheckExact(parts) || PyList_GET_SIZE(parts) > 1)
            return 0;
        if (PyList_GET_SIZE(parts) == 1) {
            text = PyList_GET_ITEM(parts, 0);
            if (!PyUnicode_CheckExact(text))
                return 0;
        }
        else
            text = S_empty;
    }
    int is_assistant = PyObject_RichCompareBool(role, S_assistant, Py_EQ);
    if (is_assistant < 0)
        return -1;
    if (is_assistant) {
        /* A message to a tool is a tool call: left to Python. */
        PyObject *recipient = get(message, S_recipient);
        if (recipient == NULL)
            return -1;
        if (PyUnicode_Check(recipient) && PyUnicode_GET_LENGTH(recipient) > 0) {
            int to_all = PyObject_RichCompareBool(recipient, S_all, Py_EQ);
            if (to_all <= 0)
                return to_all;
        }
    }
    int role_changed = PyObject_RichCompareBool(role, role_value, Py_NE);
    if (role_changed < 0)
        return -1;

    PyObject *pam = NULL, *raw_meta = PyDict_New();
    if (raw_meta == NULL)
        return -1;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(message, &pos, &key, &value)) {
        if (value == Py_None)
            continue;
        int mapped = PySet_Contains(t->message_mapped, key);
        if (mapped < 0 || (!mapped && PyDict_SetItem(raw_meta, key, value) < 0))
            goto error;
    }
    if (author_extra(author, role_changed, t->empty, raw_meta) < 0)
        goto error;
    PyObject *message_id = get(message, S_id);
    if (message_id == NULL)
        goto error;
    int other_id = PyObject_RichCompareBool(message_id, node, Py_NE);
    if (other_id < 0 || (other_id && PyDict_SetItem(raw_meta, S_message_id, message_id) < 0))
        goto error;

    pam = PyDict_New();
    if (pam == NULL ||
        PyDict_SetItem(pam, S_provider_message_id,
                       PyUnicode_Check(message_id) ? message_id : node) < 0 ||
        PyDict_SetItem(pam, S_role, role) < 0)
        goto error;
    if (PyDict_Check(metadata)) {
        PyObject *model = get(metadata, S_model_slug);
        if (model == NULL)
            goto error;
        if (PyUnicode_Check(model) && PyDict_SetItem(pam, S_model, model) < 0)
            goto error;
        int has_model = PyDict_Contains(metadata, S_model_slug);
        if (has_model < 0)
            goto error;
        if (has_model) {
            PyObject *rest = PyDict_Copy(metadata);
            if (rest == NULL)
                goto error;
            if (PyDict_DelItem(rest, S_model_slug) < 0 ||
                (PyDict_GET_SIZE(rest) > 0 && PyDict_SetItem(raw_meta, S_metadata, rest) < 0)) {
                Py_DECREF(rest);
                goto error;
            }
            Py_DECREF(rest);
        }
        else if (PyDict_GET_SIZE(metadata) > 0 &&
                 PyDict_SetItem(raw_meta, S_metadata, metadata) < 0)
            goto error;
    }
    else if (metadata != Py_None && PyDict_SetItem(raw_meta, S_metadata, metadata) < 0)
        goto error;
    PyObject *body = PyDict_New();
    if (body == NULL)
        goto error;
    if (PyDict_SetItem(body, S_type, S_text) < 0 ||
        PyDict_SetItem(body, S_text, text != NULL ? text : Py_None) < 0) {
        Py_DECREF(body);
        goto error;
    }
    if (set_new(pam, S_content, body) < 0)
        goto error;
    if (set_new(pam, S_raw_metadata, raw_meta) < 0) {
        raw_meta = NULL; /* released by set_new */
        goto error;
    }
    *out = pam;
    return 1;

error:
    Py_XDECREF(raw_meta);
    Py_XDECREF(pam);
    return -1;
}

/* ----------------------------------------------------------------------
 * What every message gets: ids, time, node members
 * ---------------------------------------------------------------------- */

static PyObject *
lookup(PyObject *dict, PyObject *key)
{
    PyObject *value = PyDict_GetItemWithError(dict, key);
    if (value == NULL && !PyErr_Occurred())
        PyErr_SetObject(PyExc_KeyError, key);
    return value;
}

static int
place(PyObject *pam, PyObject *node, PyObject *holder, PyObject *message, PyObject *ids,
      PyObject *parents, PyObject *children, PyObject *times, PyObject *own,
      const Tables *t)
{
    PyObject *id = lookup(ids, node);
    if (id == NULL || PyDict_SetItem(pam, S_id, id) < 0)
        return -1;
    PyObject *parent = lookup(parents, node);
    if (parent == NULL)
        return -1;
    PyObject *parent_id = parent == Py_None ? Py_None : lookup(ids, parent);
    if (parent_id == NULL || PyDict_SetItem(pam, S_parent_id, parent_id) < 0)
        return -1;
    PyObject *kids = lookup(children, node);
    if (kids == NULL)
        return -1;
    if (!PyList_Check(kids)) {
        PyErr_SetString(PyExc_TypeError, "a node's children must be a list");
        return -1;
    }
    Py_ssize_t count = PyList_GET_SIZE(kids);
    PyObject *kid_ids = PyList_New(count);
    if (kid_ids == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *kid_id = lookup(ids, PyList_GET_ITEM(kids, i));
        if (kid_id == NULL) {
            Py_DECREF(kid_ids);
            return -1;
        }
        Py_INCREF(kid_id);
        PyList_SET_ITEM(kid_ids, i, kid_id);
    }
    if (set_new(pam, S_children_ids, kid_ids) < 0)
        return -1;
    PyObject *time = lookup(times, node);
    if (time == NULL)
        return -1;
    double epoch = PyFloat_AsDouble(time);
    if ((epoch == -1.0 && PyErr_Occurred()) || set_new(pam, S_created_at, iso_of(epoch)) < 0)
        return -1;

    PyObject *raw_meta = lookup(pam, S_raw_metadata);
    if (raw_meta == NULL)
        return -1;
    if (!PyDict_Check(raw_meta)) {
        PyErr_SetString(PyExc_TypeError, "a message's raw_metadata must be a dict");
        return -1;
    }
    PyObject *own_time = lookup(own, node);
    if (own_time == NULL)
        return -1;
    if (own_time == Py_None) {
        PyObject *given = get(message, S_create_time);
        if (given == NULL || PyDict_SetItem(raw_meta, S_create_time, given) < 0)
            return -1;
    }
    PyObject *original_parent = get(holder, S_parent);
    if (original_parent == NULL)
        return -1;
    int moved = PyObject_RichCompareBool(original_parent, parent, Py_NE);
    if (moved < 0 || (moved && PyDict_SetItem(raw_meta, S_provider_parent, original_parent) < 0))
        return -1;
    /* Node members beyond id, message, parent and children (a node may lack any of them). */
    PyObject *extra = NULL;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(holder, &pos, &key, &value)) {
        int mapped = PySet_Contains(t->node_mapped, key);
        if (mapped < 0 || (!mapped && extra == NULL && (extra = PyDict_New()) == NULL) ||
            (!mapped && PyDict_SetItem(extra, key, value) < 0)) {
            Py_XDECREF(extra);
            return -1;
        }
    }
    if (extra != NULL && set_new(raw_meta, S_node, extra) < 0)
        return -1;
    return 0;
}

static PyObject *
messages(PyObject *module, PyObject *args)
{
    PyObject *order, *nodes, *ids, *parents, *children, *times, *own, *fallback;
    Tables t;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!OO!O!O!O!:messages", &PyList_Type, &order,
                          &PyDict_Type, &nodes, &PyDict_Type, &ids, &PyDict_Type, &parents,
                          &PyDict_Type, &children, &PyDict_Type, &times, &PyDict_Type, &own,
                          &fallback, &PyDict_Type, &t.roles, &PyFrozenSet_Type,
                          &t.message_mapped, &PyFrozenSet_Type, &t.node_mapped, &PyTuple_Type,
                          &t.empty))
        return NULL;
    Py_ssize_t count = PyList_GET_SIZE(order);
    PyObject *result = PyList_New(0);
    PyObject *extras = PyList_New(0);
    if (result == NULL || extras == NULL)
        goto error;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *node = PyList_GET_ITEM(order, i);
        PyObject *holder = lookup(nodes, node);
        if (holder == NULL)
            goto error;
        if (!PyDict_Check(holder)) {
            PyErr_SetString(PyExc_TypeError, "a mapping node must be a dict");
            goto error;
        }
        PyObject *message = lookup(holder, S_message);
        if (message == NULL)
            goto error;
        if (!PyDict_Check(message)) {
            PyErr_SetString(PyExc_TypeError, "a kept node's message must be a dict");
            goto error;
        }
        PyObject *pam = NULL;
        int common = common_message(node, message, &t, &pam);
        if (common < 0)
            goto error;
        if (!common) {
            PyObject *pair = PyObject_CallFunctionObjArgs(fallback, node, message, NULL);
            if (pair == NULL)
                goto error;
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 ||
                !PyDict_Check(PyTuple_GET_ITEM(pair, 0))) {
                Py_DECREF(pair);
                PyErr_SetString(PyExc_TypeError, "fallback must return (dict, extra)");
                goto error;
            }
            pam = PyTuple_GET_ITEM(pair, 0);
            Py_INCREF(pam);
            PyObject *extra = PyTuple_GET_ITEM(pair, 1);
            int wanted = PyObject_IsTrue(extra);
            PyObject *entry = wanted > 0 ? Py_BuildValue("(nO)", i, extra) : NULL;
            Py_DECREF(pair);
            if (wanted < 0 || (wanted && (entry == NULL || PyList_Append(extras, entry) < 0))) {
                Py_XDECREF(entry);
                Py_DECREF(pam);
                goto error;
            }
            Py_XDECREF(entry);
        }
        if (place(pam, node, holder, message, ids, parents, children, times, own, &t) < 0 ||
            PyList_Append(result, pam) < 0) {
            Py_DECREF(pam);
            goto error;
        }
        Py_DECREF(pam);
    }
    PyObject *pair = PyTuple_Pack(2, result, extras);
    Py_DECREF(result);
    Py_DECREF(extras);
    return pair;

error:
    Py_XDECREF(result);
    Py_XDECREF(extras);
    return NULL;
}

/* ----------------------------------------------------------------------
 * The message graph
 * ---------------------------------------------------------------------- */

/* `_epoch`: a usable provider timestamp; 1 and *out set, 0 for "unknown",
   -1 when the value is of a type only the Python code should judge. */
static int
epoch_of(PyObject *value, double *out)
{
    double d;
    if (PyFloat_CheckExact(value))
        d = PyFloat_AS_DOUBLE(value);
    else if (PyBool_Check(value) || value == Py_None)
        return 0;
    else if (PyLong_CheckExact(value)) {
        int overflow;
        long long n = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow)
            return 0; /* far outside the years a timestamp may name */
        if (n == -1 && PyErr_Occurred())
            return -2;
        if (n <= 0 || n > 32503680000LL)
            return 0;
        *out = (double)n;
        return 1;
    }
    else if (PyFloat_Check(value) || PyLong_Check(value))
        return -1; /* a subclass: left to Python */
    else
        return 0;
    /* A float: 0 and negatives, and after year 3000, are no times (NaN passes, as in
       Python, but JSON has none). */
    if (d <= 0 || d > 32503680000.0)
        return 0;
    *out = d;
    return 1;
}

typedef struct {
    Py_ssize_t count;    /* kept nodes */
    PyObject **keys;     /* borrowed: the kept keys, in mapping order */
    PyObject **holders;  /* borrowed: their node objects */
    Py_ssize_t *parent;  /* index of the kept parent, or -1 */
    PyObject **kids;     /* borrowed: each node's children list */
    double *own;         /* each message's own time */
    char *has_own;
} Graph;

static void
graph_free(Graph *g)
{
    PyMem_Free(g->keys);
    PyMem_Free(g->holders);
    PyMem_Free(g->parent);
    PyMem_Free(g->kids);
    PyMem_Free(g->own);
    PyMem_Free(g->has_own);
}

/* The nearest kept ancestor above the node whose recorded parent `current`
   holds no message (`_Graph._kept_ancestor`): its index, -1 for none, -2 on
   error, -3 when Python must decide. */
static Py_ssize_t
kept_ancestor(PyObject *key, PyObject *current, PyObject *mapping, PyObject *index)
{
    PyObject *seen = PySet_New(NULL);
    if (seen == NULL || PySet_Add(seen, key) < 0) {
        Py_XDECREF(seen);
        return -2;
    }
    Py_ssize_t found = -1;
    while (PyUnicode_Check(current)) {
        PyObject *node = PyDict_GetItemWithError(mapping, current);
        if (node == NULL) {
            if (PyErr_Occurred())
                found = -2;
            break;
        }
        int repeated = PySet_Contains(seen, current);
        if (repeated != 0) {
            if (repeated < 0)
                found = -2;
            break;
        }
        PyObject *at = PyDict_GetItemWithError(index, current);
        if (at != NULL) {
            found = PyLong_AsSsize_t(at);
            break;
        }
        if (PyErr_Occurred() || PySet_Add(seen, current) < 0) {
            found = -2;
            break;
        }
        current = get(node, S_parent);
        if (current == NULL) {
            found = -2;
            break;
        }
    }
    Py_DECREF(seen);
    return found;
}

/* Python objects out of the graph: (kept, empty, parents, children, order, own,
   times).  `order` holds indices; `times` the time of each, in order. */
static PyObject *
graph_result(const Graph *g, PyObject *kept, PyObject *empty, const Py_ssize_t *order,
             const double *times)
{
    PyObject *parents = PyDict_New(), *children = PyDict_New(), *own = PyDict_New(),
             *when = PyDict_New(), *ordered = PyList_New(g->count);
    if (parents == NULL || children == NULL || own == NULL || when == NULL || ordered == NULL)
        goto error;
    for (Py_ssize_t i = 0; i < g->count; i++) {
        PyObject *key = g->keys[i];
        if (set_new(children, key, PyList_GetSlice(g->kids[i], 0, PY_SSIZE_T_MAX)) < 0 ||
            PyDict_SetItem(parents, key, g->parent[i] < 0 ? Py_None : g->keys[g->parent[i]]) <
                0)
            goto error;
        if (g->has_own[i]) {
            if (set_new(own, key, PyFloat_FromDouble(g->own[i])) < 0)
                goto error;
        }
        else if (PyDict_SetItem(own, key, Py_None) < 0)
            goto error;
    }
    for (Py_ssize_t i = 0; i < g->count; i++) {
        PyObject *key = g->keys[order[i]];
        Py_INCREF(key);
        PyList_SET_ITEM(ordered, i, key);
        if (set_new(when, key, PyFloat_FromDouble(times[i])) < 0)
            goto error;
    }
    return Py_BuildValue("(OONNNNN)", kept, empty, parents, children, ordered, own, when);

error:
    Py_XDECREF(parents);
    Py_XDECREF(children);
    Py_XDECREF(own);
    Py_XDECREF(when);
    Py_XDECREF(ordered);
    return NULL;
}

/* Depth first from `start`, children in their listed order: appends to
   `order`, marks `visited`.  `stack` has room for every push (each node is
   pushed once per parent that lists it, plus the start). */
static void
walk(const Graph *g, Py_ssize_t start, char *visited, Py_ssize_t *stack, Py_ssize_t *order,
     Py_ssize_t *done, Py_ssize_t *const *kid_index)
{
    Py_ssize_t top = 0;
    stack[top++] = start;
    while (top) {
        Py_ssize_t node = stack[--top];
        if (visited[node])
            continue;
        visited[node] = 1;
        order[(*done)++] = node;
        Py_ssize_t count = PyList_GET_SIZE(g->kids[node]);
        for (Py_ssize_t k = count - 1; k >= 0; k--) {
            Py_ssize_t kid = kid_index[node][k];
            if (!visited[kid])
                stack[top++] = kid;
        }
    }
}

static PyObject *
graph(PyObject *module, PyObject *args)
{
    PyObject *mapping, *created, *updated;
    if (!PyArg_ParseTuple(args, "O!OO:graph", &PyDict_Type, &mapping, &created, &updated))
        return NULL;
    Py_ssize_t size = PyDict_GET_SIZE(mapping);
    Graph g = {0};
    PyObject *kept = PyList_New(0), *empty = PyList_New(0), *index = PyDict_New();
    PyObject *result = NULL;
    Py_ssize_t *order = NULL, *stack = NULL, *kid_store = NULL, **kid_index = NULL,
               *listed = NULL;
    double *times = NULL;
    char *visited = NULL, *done = NULL;
    if (kept == NULL || empty == NULL || index == NULL)
        goto finish;
    g.keys = PyMem_Calloc(size + 1, sizeof(PyObject *));
    g.holders = PyMem_Calloc(size + 1, sizeof(PyObject *));
    g.parent = PyMem_Calloc(size + 1, sizeof(Py_ssize_t));
    g.kids = PyMem_Calloc(size + 1, sizeof(PyObject *));
    g.own = PyMem_Calloc(size + 1, sizeof(double));
    g.has_own = PyMem_Calloc(size + 1, 1);
    if (!g.keys || !g.holders || !g.parent || !g.kids || !g.own || !g.has_own) {
        PyErr_NoMemory();
        goto finish;
    }

    /* Nodes that hold a message, and those that do not. */
    Py_ssize_t pos = 0;
    PyObject *key, *node;
    while (PyDict_Next(mapping, &pos, &key, &node)) {
        if (!PyUnicode_CheckExact(key) || !PyDict_CheckExact(node))
            goto python;
        PyObject *message = get(node, S_message);
        if (message == NULL)
            goto finish;
        if (message == Py_None) {
            if (PyList_Append(empty, key) < 0)
                goto finish;
            continue;
        }
        if (!PyDict_CheckExact(message))
            goto python;
        PyObject *at = PyLong_FromSsize_t(g.count);
        if (set_new(index, key, at) < 0 || PyList_Append(kept, key) < 0)
            goto finish;
        g.keys[g.count] = key;
        g.holders[g.count] = node;
        PyObject *given = get(message, S_create_time);
        if (given == NULL)
            goto finish;
        int known = epoch_of(given, &g.own[g.count]);
        if (known < 0) {
            if (known == -2)
                goto finish;
            goto python;
        }
        g.has_own[g.count] = (char)known;
        g.count++;
    }

    /* Parents: the recorded one when it holds a message, else the nearest kept
       ancestor. */
    for (Py_ssize_t i = 0; i < g.count; i++) {
        PyObject *parent = get(g.holders[i], S_parent);
        if (parent == NULL)
            goto finish;
        if (parent == Py_None) {
            g.parent[i] = -1;
            continue;
        }
        if (!PyUnicode_CheckExact(parent))
            goto python; /* unhashable or odd: Python's rules */
        PyObject *at = PyDict_GetItemWithError(index, parent);
        if (at != NULL) {
            g.parent[i] = PyLong_AsSsize_t(at);
            continue;
        }
        if (PyErr_Occurred())
            goto finish;
        Py_ssize_t found = kept_ancestor(g.keys[i], parent, mapping, index);
        if (found == -2)
            goto finish;
        g.parent[i] = found;
    }

    /* Children: each node's list as it is, when it names exactly the kept nodes
       whose parent it is, once each; anything else is Python's to repair. */
    listed = PyMem_Calloc(g.count + 1, sizeof(Py_ssize_t));
    kid_index = PyMem_Calloc(g.count + 1, sizeof(Py_ssize_t *));
    Py_ssize_t edges = 0;
    for (Py_ssize_t i = 0; i < g.count; i++) {
        PyObject *kids = get(g.holders[i], S_children);
        if (kids == NULL)
            goto finish;
        if (!PyList_CheckExact(kids))
            goto python;
        g.kids[i] = kids;
        edges += PyList_GET_SIZE(kids);
    }
    kid_store = PyMem_Calloc(edges + 1, sizeof(Py_ssize_t));
    if (listed == NULL || kid_index == NULL || kid_store == NULL) {
        PyErr_NoMemory();
        goto finish;
    }
    Py_ssize_t used = 0;
    for (Py_ssize_t i = 0; i < g.count; i++) {
        Py_ssize_t count = PyList_GET_SIZE(g.kids[i]);
        kid_index[i] = kid_store + used;
        for (Py_ssize_t k = 0; k < count; k++) {
            PyObject *kid = PyList_GET_ITEM(g.kids[i], k);
            if (!PyUnicode_CheckExact(kid))
                goto python;
            PyObject *at = PyDict_GetItemWithError(index, kid);
            if (at == NULL) {
                if (PyErr_Occurred())
                    goto finish;
                goto python;
            }
            Py_ssize_t child = PyLong_AsSsize_t(at);
            if (g.parent[child] != i)
                goto python;
            /* Listed twice: one parent lists a child at most once here. */
            if (listed[child] != 0)
                goto python;
            listed[child] = 1;
            kid_index[i][k] = child;
        }
        used += count;
    }
    /* A node its parent does not list: Python appends it to the list. */
    for (Py_ssize_t i = 0; i < g.count; i++)
        if (g.parent[i] >= 0 && !listed[i])
            goto python;

    /* Depth first: roots in mapping order, then any node left (a cycle). */
    order = PyMem_Calloc(g.count + 1, sizeof(Py_ssize_t));
    stack = PyMem_Calloc(edges + g.count + 1, sizeof(Py_ssize_t));
    visited = PyMem_Calloc(g.count + 1, 1);
    done = PyMem_Calloc(g.count + 1, 1);
    times = PyMem_Calloc(g.count + 1, sizeof(double));
    if (!order || !stack || !visited || !done || !times) {
        PyErr_NoMemory();
        goto finish;
    }
    Py_ssize_t placed = 0;
    for (int pass = 0; pass < 2; pass++)
        for (Py_ssize_t i = 0; i < g.count; i++)
            if (!visited[i] && (pass == 1 || g.parent[i] < 0))
                walk(&g, i, visited, stack, order, &placed, kid_index);

    /* Times (`_Graph.times`): a message's own, else its parent's, else the
       nearest descendant's (depth first), else the conversation's (`created`
       and `updated` came through `_epoch`: a float or None). */
    PyObject *fallback = created != Py_None ? created : updated;
    double conv_time = 0.0;
    if (fallback != Py_None) {
        conv_time = PyFloat_AsDouble(fallback);
        if (conv_time == -1.0 && PyErr_Occurred())
            goto finish;
    }
    double *result_time = PyMem_Calloc(g.count + 1, sizeof(double));
    /* mark[d] == walk: d was seen by the current descendant walk. */
    Py_ssize_t *mark = PyMem_Calloc(g.count + 1, sizeof(Py_ssize_t));
    if (result_time == NULL || mark == NULL) {
        PyMem_Free(result_time);
        PyMem_Free(mark);
        PyErr_NoMemory();
        goto finish;
    }
    Py_ssize_t walks = 0;
    for (Py_ssize_t n = 0; n < placed; n++) {
        Py_ssize_t i = order[n];
        double value = conv_time;
        if (g.has_own[i])
            value = g.own[i];
        else if (g.parent[i] >= 0 && done[g.parent[i]])
            value = result_time[g.parent[i]];
        else {
            /* The nearest descendant with a time of its own. */
            Py_ssize_t top = 0;
            walks++;
            Py_ssize_t count = PyList_GET_SIZE(g.kids[i]);
            for (Py_ssize_t k = count - 1; k >= 0; k--)
                stack[top++] = kid_index[i][k];
            while (top) {
                Py_ssize_t d = stack[--top];
                if (mark[d] == walks)
                    continue;
                mark[d] = walks;
                if (g.has_own[d]) {
                    value = g.own[d];
                    break;
                }
                Py_ssize_t c = PyList_GET_SIZE(g.kids[d]);
                for (Py_ssize_t k = c - 1; k >= 0; k--)
                    stack[top++] = kid_index[d][k];
            }
        }
        result_time[i] = value;
        done[i] = 1;
        times[n] = value;
    }
    PyMem_Free(mark);
    PyMem_Free(result_time);
    result = graph_result(&g, kept, empty, order, times);
    goto finish;

python:
    if (!PyErr_Occurred()) {
        result = Py_None;
        Py_INCREF(result);
    }
finish:
    graph_free(&g);
    PyMem_Free(order);
    PyMem_Free(stack);
    PyMem_Free(kid_store);
    PyMem_Free(kid_index);
    PyMem_Free(listed);
    PyMem_Free(times);
    PyMem_Free(visited);
    PyMem_Free(done);
    Py_XDECREF(kept);
    Py_XDECREF(empty);
    Py_XDECREF(index);
    return result;
}

/* ----------------------------------------------------------------------
 * Message ids
 * ---------------------------------------------------------------------- */

static PyObject *
message_ids(PyObject *module, PyObject *args)
{
    PyObject *base, *nodes;
    if (!PyArg_ParseTuple(args, "OO!:message_ids", &base, &PyList_Type, &nodes))
        return NULL;
    PyObject *result = PyDict_New();
    if (result == NULL)
        return NULL;
    char *name = NULL;
    Py_ssize_t room = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(nodes); i++) {
        PyObject *node = PyList_GET_ITEM(nodes, i);
        if (!PyUnicode_Check(node)) {
            PyErr_SetString(PyExc_TypeError, "a node id must be a str");
            goto error;
        }
        Py_ssize_t size;
        const char *utf8 = PyUnicode_AsUTF8AndSize(node, &size);
        char text[UUID_SIZE];
        if (utf8 == NULL ||
            node_uuid(base, utf8, size, PyUnicode_GET_LENGTH(node), &name, &room, text) < 0 ||
            set_new(result, node, PyUnicode_FromStringAndSize(text, UUID_SIZE)) < 0)
            goto error;
    }
    PyMem_Free(name);
    return result;

error:
    PyMem_Free(name);
    Py_DECREF(result);
    return NULL;
}

/* ---------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"messages", messages, METH_VARARGS,
     "messages(order, nodes, ids, parents, children, times, own, fallback, roles, "
     "message_mapped, node_mapped, empty) -> (messages, extras)\n\n"
     "The PAM messages of one ChatGPT conversation (see "
     "memvault.importers.chatgpt._messages)."},
    {"graph", graph, METH_VARARGS,
     "graph(mapping, created, updated) -> (kept, empty, parents, children, order, own, "
     "times) | None\n\n"
     "A ChatGPT conversation's message graph and each message's time (see "
     "memvault.importers.chatgpt._Graph), or None where Python must decide."},
    {"message_ids", message_ids, METH_VARARGS,
     "message_ids(base, nodes) -> {node: id}\n\n"
     "For each node, the id (`ids.stable_id`) of the SHA-1 `base` (a hashlib object holding the hashed "
     "prefix of the name) continued with \"<length>:<node>\" (see "
     "memvault.importers.chatgpt._message_ids)."},
    {"iso", iso, METH_O, "iso(epoch) -> str: Unix seconds as RFC 3339 UTC."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "memvault.importers._chatgpt",
    "The ChatGPT importer's per-message loop, in C.", -1, methods,
};

#define INTERN(var, text)                                  \
    do {                                                   \
        if ((var = PyUnicode_InternFromString(text)) == NULL) \
            return NULL;                                   \
    } while (0)

PyMODINIT_FUNC
PyInit__chatgpt(void)
{
    INTERN(S_author, "author");
    INTERN(S_role, "role");
    INTERN(S_id, "id");
    INTERN(S_metadata, "metadata");
    INTERN(S_model_slug, "model_slug");
    INTERN(S_model, "model");
    INTERN(S_attachments, "attachments");
    INTERN(S_citations, "citations");
    INTERN(S_content, "content");
    INTERN(S_content_type, "content_type");
    INTERN(S_text, "text");
    INTERN(S_parts, "parts");
    INTERN(S_type, "type");
    INTERN(S_recipient, "recipient");
    INTERN(S_assistant, "assistant");
    INTERN(S_all, "all");
    INTERN(S_empty, "");
    INTERN(S_provider_message_id, "provider_message_id");
    INTERN(S_raw_metadata, "raw_metadata");
    INTERN(S_message_id, "message_id");
    INTERN(S_message, "message");
    INTERN(S_parent, "parent");
    INTERN(S_parent_id, "parent_id");
    INTERN(S_children_ids, "children_ids");
    INTERN(S_created_at, "created_at");
    INTERN(S_create_time, "create_time");
    INTERN(S_provider_parent, "provider_parent");
    INTERN(S_node, "node");
    INTERN(S_children, "children");
    if (common_init() < 0)
        return NULL;
    return PyModule_Create(&module_def);
}
