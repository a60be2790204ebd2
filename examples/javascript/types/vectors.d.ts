/* eslint-disable */
/**
 * Generated from schemas/vectors.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * One file of language-neutral test vectors: the cases of one operation, each with a stable id, the clauses it pins, its input and its expected output.
 */
export interface VectorFile {
  /**
   * What the file's cases cover.
   */
  description: string;
  /**
   * What each case runs. project: input {items, budget}, expected a ContextProjection document. project_pair_safe: input {items, budget, tiers}, expected the ContextProjection document of PairSafeContextProjector(tiers). wire_problems: input {items, provider}, expected {problems: [{rule, position, part, message}]}. approx_chars: input {item}, expected {size}. parse_summary: input {text}, expected a StructuredSummary document. render_summary: input a StructuredSummary document, expected {text}. turn_boundary_cut: input {items, naiveCut}, expected {cut}. extract_file_operations: input {items, reads}, expected {files}. compact_structured: input {snapshot, budget}, expected a CompactResult document. compact_llm: input {snapshot, maxItems, modelOutput, modelFails}, expected {prompt (a ModelPrompt document, or null when the model must not be called), result (a CompactResult document)}.
   */
  operation:
    | 'approx_chars'
    | 'project'
    | 'project_pair_safe'
    | 'parse_summary'
    | 'render_summary'
    | 'turn_boundary_cut'
    | 'extract_file_operations'
    | 'compact_structured'
    | 'compact_llm'
    | 'wire_problems';
  /**
   * The cases, in a stable order.
   *
   * @minItems 1
   */
  cases: [VectorCase, ...VectorCase[]];
}
/**
 * One vector: its input and expected output are JSON values whose shape the file's operation gives.
 */
export interface VectorCase {
  /**
   * Stable id, unique across all files, e.g. project.pinned-prefix-and-tail.
   */
  id: string;
  /**
   * What the case shows, in one line.
   */
  description: string;
  /**
   * Where the case comes from, or why it matters.
   */
  comment?: string;
  /**
   * The SPEC.md clause ids the case pins.
   *
   * @minItems 1
   */
  clauses: [string, ...string[]];
  /**
   * Optional features the case needs; an implementation without them skips it.
   */
  features?: ('tier1' | 'tier2')[];
  input: unknown;
  expected: unknown;
}
