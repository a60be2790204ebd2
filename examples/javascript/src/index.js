// ctxpact in JavaScript: the projectors, approx_chars and the summary parser (SPEC.md §2 to
// §8 and §13), with the JSON model they work on.

export {
  JsonNumber,
  JsonSyntaxError,
  MAX_JSON_DEPTH,
  codePointLength,
  compactJson,
  formatFloat,
  isBlank,
  isObject,
  javaTrim,
  parseJson,
  quoteString,
  tryParseJson,
} from './json.js';
export { approxChars, totalApproxChars } from './size.js';
export { InvalidBudgetError, readBudget, resolveBudget } from './budget.js';
export { isReasoning, isToolResult, isUserItem, toolCalls } from './items.js';
export {
  DefaultContextProjector,
  TypeAwareContextProjector,
  charStage,
  itemStage,
  isPlaceholderOutput,
} from './projection.js';
export { parseStructuredSummary, renderStructuredSummary } from './summary.js';
