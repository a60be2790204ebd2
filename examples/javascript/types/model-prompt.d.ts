/* eslint-disable */
/**
 * Generated from schemas/model-prompt.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * One request to a model.
 */
export interface ModelPrompt {
  /**
   * The model's name (may be empty).
   */
  model: string;
  /**
   * The system prompt, or null.
   */
  systemPrompt: string | null;
  /**
   * The prompt's items.
   */
  items: unknown[];
}
