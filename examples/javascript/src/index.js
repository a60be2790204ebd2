// ctxpact in JavaScript: the projectors, approx_chars, the turn-boundary cut, file tracking,
// the summary parser and renderer (SPEC.md §2 to §8, §11 to §13), the recognition of tool calls and
// results and their pairing (§1.4, §1.5), with the JSON model they work on.

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
export {
  holdsToolResult,
  isFunctionCall,
  isReasoning,
  isResultItem,
  isUserInput,
  isUserItem,
  toolCalls,
  toolResults,
} from './items.js';
export { pairProblems, pairing } from './pairing.js';
export { turnBoundaryCut } from './cut.js';
export { MODIFY_TOOL_WORDS, PATH_KEYS, READ_TOOL_WORDS, extractFileOperations, toolNameWords } from './files.js';
export { isPlaceholderOutput } from './tiers.js';
export { DefaultContextProjector, TypeAwareContextProjector, charStage, itemStage } from './projection.js';
export { PairSafeContextProjector, unitCharStage, unitItemStage, unitsOf } from './pair-safe.js';
export { parseStructuredSummary, renderStructuredSummary } from './summary.js';
