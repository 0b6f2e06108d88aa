"""Checks of `npm run fuzz` beyond Schemathesis' own (tools/fuzz/main.ts loads this module through
SCHEMATHESIS_HOOKS): a refused input gets the API's own error body, and a 400 names what is wrong.
"""
import json

import schemathesis

# Words a refusal of the request as a whole may name instead of a field.
WHOLE_REQUEST = ("body", "Content-Type", "JSON", "multipart", "file", "query parameter", "Host", "request")


@schemathesis.check
def refusal_names_the_problem(ctx, response, case):
    """Every 4xx carries {"error": {name, status, code, message}} with error.status equal to the
    HTTP status; a 400 says which field, parameter or part of the request it refuses."""
    status = response.status_code
    if not 400 <= status < 500:
        return None
    try:
        body = json.loads(response.text)
    except ValueError:
        raise AssertionError(f"a {status} whose body is not JSON: {response.text[:200]!r}")
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        raise AssertionError(f"a {status} without the API's error body: {response.text[:200]!r}")
    if error.get("status") != status:
        raise AssertionError(f"a {status} whose error.status is {error.get('status')!r}")
    if not isinstance(error.get("code"), str) or not error["code"]:
        raise AssertionError(f"a {status} without error.code")
    message = error.get("message")
    if not isinstance(message, str) or not message.strip():
        raise AssertionError(f"a {status} without a message")
    if status == 400 and not any(word in message for word in names_of(case)):
        raise AssertionError(f"a 400 whose message names nothing of the request: {message!r}")
    return None


def names_of(case):
    """The names a refusal of `case` may name: its parameters, its body's fields, the request."""
    names = set(WHOLE_REQUEST)
    operation = case.operation
    for container in (operation.path_parameters, operation.query, operation.headers):
        names.update(parameter.name for parameter in container)
    keys = list(keys_of(case.body))
    names.update(keys)
    # An odd key (empty, spaces) is named quoted: unknown field "".
    names.update(json.dumps(key) for key in keys if isinstance(key, str))
    names.update(documented_fields(operation))
    names.update(case.query or {})
    return {name for name in names if isinstance(name, str) and name}


def keys_of(value):
    """Every key of a JSON body, at any depth."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys_of(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_of(inner)


def documented_fields(operation):
    """The property names of the operation's body schemas, `$ref`s followed in the document."""
    document = operation.schema.raw_schema
    for alternative in operation.body:
        schema = (alternative.definition or {}).get("schema", {})
        yield from properties_of(schema, document, depth=0)


def properties_of(schema, document, depth):
    if depth > 5 or not isinstance(schema, dict):
        return
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        node = document
        for part in ref[2:].split("/"):
            node = node.get(part, {}) if isinstance(node, dict) else {}
        yield from properties_of(node, document, depth + 1)
        return
    for name, inner in (schema.get("properties") or {}).items():
        yield name
        yield from properties_of(inner, document, depth + 1)
    yield from properties_of(schema.get("items"), document, depth + 1)
