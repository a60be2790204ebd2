// The JSON value model of src/json.js, declared here because a JSDoc @typedef cannot refer to
// itself. Written by hand: it describes the implementation, not a record schema.

import type { JsonNumber } from './json.js';

/** A JSON value: null, a boolean, a string, a number (its token kept), an array, an object. */
export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | JsonObject;

/** A JSON object: its members in order (insertion order is member order, whatever the names). */
export interface JsonObject extends Map<string, JsonValue> {}
