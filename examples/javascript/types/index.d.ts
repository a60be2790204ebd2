/* eslint-disable */
/**
 * Generated from schemas/ and schemas/harness/ by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs): each record once, named by its schema's
 * title. Do not edit: run `npm run types`.
 */

/**
 * The answer to approx_chars: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type ApproxCharsResponse = ApproxCharsResultOutcome | SkippedOutcome | ErroredOutcome;
/**
 * The answer to compact: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type CompactResponse = CompactResultOutcome | SkippedOutcome | ErroredOutcome;
/**
 * The answer to compressor_call: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type CompressorCallResponse = CompressorCallResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to compressor_drop: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type CompressorDropResponse = CompressorDropResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to compressor_new: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type CompressorNewResponse = CompressorNewResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to extract_file_operations: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type ExtractFileOperationsResponse = ExtractFileOperationsResultOutcome | SkippedOutcome | ErroredOutcome;
/**
 * The answer to memory_call: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type MemoryCallResponse = MemoryCallResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to memory_drop: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type MemoryDropResponse = MemoryDropResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to memory_new: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type MemoryNewResponse = MemoryNewResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to memory_open: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type MemoryOpenResponse = MemoryOpenResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to parse_summary: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type ParseSummaryResponse = ParseSummaryResultOutcome | SkippedOutcome | ErroredOutcome;
/**
 * The answer to project: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type ProjectResponse = ProjectResultOutcome | SkippedOutcome | ErroredOutcome;
/**
 * The answer to render_summary: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type RenderSummaryResponse = RenderSummaryResultOutcome | SkippedOutcome | ErroredOutcome;
/**
 * The suite's answer to a call (HRN-24): its seq (the seq of the request being answered), cmd and id, with exactly one of the call's result and its error.
 */
export type Reply = ReplyResult | ReplyErrored;
/**
 * The answer to runtime_call: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type RuntimeCallResponse = RuntimeCallResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to runtime_drop: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type RuntimeDropResponse = RuntimeDropResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to runtime_new: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type RuntimeNewResponse = RuntimeNewResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to should_compact: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type ShouldCompactResponse = ShouldCompactResultOutcome | SkippedOutcome | ErroredOutcome;
/**
 * The answer to start (the protocol version the harness speaks and what it implements): exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type StartResponse = StartResultOutcome | SkippedOutcome | ErroredOutcome;
/**
 * The answer to stop, written before the harness exits: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type StopResponse = StopResultOutcome | SkippedOutcome | ErroredOutcome;
/**
 * The answer to store_call: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type StoreCallResponse = StoreCallResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to store_drop: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type StoreDropResponse = StoreDropResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to store_new: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type StoreNewResponse = StoreNewResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to store_open: exactly one of a result, a skip (skipped-outcome) and an error (raised-outcome, HRN-27), each with the request's seq, echoed unchanged.
 */
export type StoreOpenResponse = StoreOpenResultOutcome | SkippedOutcome | RaisedOutcome;
/**
 * The answer to turn_boundary_cut: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type TurnBoundaryCutResponse = TurnBoundaryCutResultOutcome | SkippedOutcome | ErroredOutcome;

/**
 * Not a document: one member per ctxpact schema, named by its path under schemas/ and of its type, so that each record is declared once.
 */
export interface CtxpactDocuments {
  'agent-event': AgentEvent;
  'compact-result': CompactResult;
  'conformance-report': ConformanceReport;
  'context-budget': ContextBudget;
  'context-projection': ContextProjection;
  'context-report': ContextReport;
  'event-error': EventError;
  'harness/approx-chars-request': ApproxCharsRequest;
  'harness/approx-chars-response': ApproxCharsResponse;
  'harness/call': Call;
  'harness/compact-request': CompactRequest;
  'harness/compact-response': CompactResponse;
  'harness/compressor-call-request': CompressorCallRequest;
  'harness/compressor-call-response': CompressorCallResponse;
  'harness/compressor-drop-request': CompressorDropRequest;
  'harness/compressor-drop-response': CompressorDropResponse;
  'harness/compressor-new-request': CompressorNewRequest;
  'harness/compressor-new-response': CompressorNewResponse;
  'harness/created': Created;
  'harness/errored-outcome': ErroredOutcome;
  'harness/extract-file-operations-request': ExtractFileOperationsRequest;
  'harness/extract-file-operations-response': ExtractFileOperationsResponse;
  'harness/memory-call-request': MemoryCallRequest;
  'harness/memory-call-response': MemoryCallResponse;
  'harness/memory-drop-request': MemoryDropRequest;
  'harness/memory-drop-response': MemoryDropResponse;
  'harness/memory-new-request': MemoryNewRequest;
  'harness/memory-new-response': MemoryNewResponse;
  'harness/memory-open-request': MemoryOpenRequest;
  'harness/memory-open-response': MemoryOpenResponse;
  'harness/parse-summary-request': ParseSummaryRequest;
  'harness/parse-summary-response': ParseSummaryResponse;
  'harness/project-request': ProjectRequest;
  'harness/project-response': ProjectResponse;
  'harness/raised-outcome': RaisedOutcome;
  'harness/render-summary-request': RenderSummaryRequest;
  'harness/render-summary-response': RenderSummaryResponse;
  'harness/reply': Reply;
  'harness/runtime-call-request': RuntimeCallRequest;
  'harness/runtime-call-response': RuntimeCallResponse;
  'harness/runtime-drop-request': RuntimeDropRequest;
  'harness/runtime-drop-response': RuntimeDropResponse;
  'harness/runtime-new-request': RuntimeNewRequest;
  'harness/runtime-new-response': RuntimeNewResponse;
  'harness/scripted-model': ScriptedModel;
  'harness/should-compact-request': ShouldCompactRequest;
  'harness/should-compact-response': ShouldCompactResponse;
  'harness/skipped-outcome': SkippedOutcome;
  'harness/start-request': StartRequest;
  'harness/start-response': StartResponse;
  'harness/stop-request': StopRequest;
  'harness/stop-response': StopResponse;
  'harness/store-call-request': StoreCallRequest;
  'harness/store-call-response': StoreCallResponse;
  'harness/store-drop-request': StoreDropRequest;
  'harness/store-drop-response': StoreDropResponse;
  'harness/store-new-request': StoreNewRequest;
  'harness/store-new-response': StoreNewResponse;
  'harness/store-open-request': StoreOpenRequest;
  'harness/store-open-response': StoreOpenResponse;
  'harness/target-options': TargetOptions;
  'harness/turn-boundary-cut-request': TurnBoundaryCutRequest;
  'harness/turn-boundary-cut-response': TurnBoundaryCutResponse;
  'lifecycle-event': LifecycleEvent;
  'memory-snapshot': MemorySnapshot;
  'model-prompt': ModelPrompt;
  'model-result': ModelResult;
  'session-snapshot': AgentSessionSnapshot;
  'structured-summary': StructuredSummary;
  'tool-call': ToolCall;
  vectors: VectorFile;
}
/**
 * Something the runtime did, as an event listener receives it and a host persists or forwards it (EVT-1, EVT-2, EVT-4, EVT-5). Its payload is any JSON value, by type and message: a ContextReport document (MEMORY_COMPRESS 'context projection'), a CompactResult document (MEMORY_COMPRESS 'compacted'), an EventError document (COMPACT_FAILED, ERROR), a ToolCall document (TOOL_CALL), the output text (TOOL_RESULT, FINAL_OUTPUT), or null.
 */
export interface AgentEvent {
  /**
   * The event's type as its upper-case name: STEP_START, STEP_END, MEMORY_COMPRESS, COMPACT_FAILED, TOOL_CALL, TOOL_RESULT, FINAL_OUTPUT, ERROR, or another an implementation adds (EVT-1).
   */
  type: string;
  /**
   * The event's message, exact for the events EVT-4 names (e.g. 'compacted', 'lifecycle hook failed: <name>').
   */
  message: string | null;
  /**
   * The step of the run, counting from 0 within one run; null outside a run (a manual compaction, the start and end of a session).
   */
  step: number | null;
  payload?: unknown;
  /**
   * The id of the session the event belongs to (SES-17).
   */
  sessionId: string;
}
/**
 * What a compaction produced: the new memory, its summary and the structured fields (CMP).
 */
export interface CompactResult {
  /**
   * The memory after compaction, or null when the policy produced none.
   */
  memory?: MemorySnapshot | null;
  /**
   * The summary text written into the new memory.
   */
  summary?: string | null;
  /**
   * Work finished, one short line each.
   */
  completed?: string[];
  /**
   * Work still to do.
   */
  pending?: string[];
  /**
   * Decisions taken that later work must respect.
   */
  decisions?: string[];
  /**
   * Artifacts changed (not filled by the reference policies).
   */
  changedArtifacts?: string[];
  /**
   * Failed commands and errors (from the summary's errors).
   */
  failedCommands?: string[];
  /**
   * Test outcomes.
   */
  testResults?: string[];
  /**
   * Confirmations the user gave (not filled by the reference policies).
   */
  userConfirmations?: string[];
  /**
   * Sandbox state worth keeping (not filled by the reference policies).
   */
  sandboxState?: string[];
  /**
   * Questions still open.
   */
  openQuestions?: string[];
  /**
   * Files read, de-duplicated, first seen first (FIL).
   */
  readFiles?: string[];
  /**
   * Files modified, de-duplicated, first seen first (FIL).
   */
  modifiedFiles?: string[];
  /**
   * The projection report of a projector-based policy, or null.
   */
  contextReport?: ContextReport | null;
}
/**
 * An agent memory's state: its raw items (without the summary message) and its summary (MEM).
 */
export interface MemorySnapshot {
  /**
   * The memory's items, oldest first.
   */
  items?: unknown[];
  /**
   * The memory's summary, or null when it has none.
   */
  summary?: string | null;
}
/**
 * What a projection kept and what it dropped (RPT).
 */
export interface ContextReport {
  /**
   * Number of items the projector was given.
   */
  sourceItemCount: number;
  /**
   * Number of items in the projection.
   */
  projectedItemCount: number;
  /**
   * sourceItemCount minus projectedItemCount: items left out (replaced items are not dropped).
   */
  droppedItemCount: number;
  /**
   * Approximate size (SIZE) of the items the projector was given.
   */
  sourceApproxChars: number;
  /**
   * Approximate size (SIZE) of the projected items.
   */
  projectedApproxChars: number;
  /**
   * True exactly when the item stage dropped at least one item.
   */
  itemLimitApplied: boolean;
  /**
   * True exactly when the character stage dropped at least one item.
   */
  characterLimitApplied: boolean;
  /**
   * What each stage did, in stage order, e.g. 'tier1 microcompact: cleared 3 old tool result(s), kept recent 5' or 'maxItems applied: 40'.
   */
  notes?: string[];
  /**
   * ctxpact extension: ascending positions, in the given list, of the items left out; null or absent when not reported.
   */
  droppedIndices?: number[] | null;
  /**
   * ctxpact extension: ascending positions, in the given list, of the items replaced by a placeholder or a cleared reasoning item; null or absent when not reported.
   */
  clearedIndices?: number[] | null;
}
/**
 * The machine-readable report of one `ctxpact check` run: a header, the implementations checked, one record per check and implementation, and a footer with totals.
 */
export interface ConformanceReport {
  /**
   * What ran: suite, spec and schema versions, profile and seed.
   */
  header: ReportHeader;
  /**
   * The implementations checked, in run order.
   */
  implementations: ReportImplementation[];
  /**
   * One record per check and implementation.
   */
  results: ReportResult[];
  /**
   * The checks an interrupted run did not run (SUITE-9), in run order; empty for a complete run.
   */
  notRun?: ReportNotRun[];
  /**
   * Totals over all results.
   */
  footer: ReportFooter;
}
/**
 * What ran.
 */
export interface ReportHeader {
  /**
   * Always ctxpact.
   */
  suite: 'ctxpact';
  /**
   * The version of the ctxpact package that ran the checks.
   */
  suiteVersion: string;
  /**
   * The version of spec/SPEC.md the checks verify.
   */
  specVersion: string;
  /**
   * The version of this report format.
   */
  schemaVersion: string;
  /**
   * The Hypothesis profile used.
   */
  profile: 'quick' | 'default' | 'thorough';
  /**
   * The seed given on the command line, or null for the profile's own (derandomised) choice.
   */
  seed: number | null;
}
/**
 * One implementation that was checked.
 */
export interface ReportImplementation {
  /**
   * The implementation's name, e.g. its import path.
   */
  name: string;
  /**
   * What kind of implementation it is.
   */
  component:
    | 'projector'
    | 'compact-policy'
    | 'agent-memory'
    | 'summary-parser'
    | 'session-store'
    | 'runtime'
    | 'memory-compressor'
    | 'functions';
  /**
   * What the implementation claims, which decides the checks that apply.
   */
  claims: ('generic' | 'pair-integrity' | 'wire-valid' | 'exact' | 'llm-summary')[];
  /**
   * The language it is written in.
   */
  language: string;
  /**
   * Its version, when known; empty otherwise.
   */
  version: string;
}
/**
 * One check's outcome for one implementation; its counterexample is, for a failure, the shrunk input that shows it (any JSON value), and null otherwise.
 */
export interface ReportResult {
  /**
   * The name of the implementation checked.
   */
  implementation: string;
  /**
   * The check's stable id.
   */
  checkId: string;
  /**
   * The SPEC.md clause ids the check verifies.
   */
  clauses: string[];
  /**
   * What the check verifies, in one line.
   */
  title: string;
  /**
   * How the check ended: pass, fail (including an unexpected pass of an expected failure), skip (not claimed or not applicable), xfail (an expected failure that failed), error (the implementation could not be built or exercised).
   */
  outcome: 'pass' | 'fail' | 'skip' | 'xfail' | 'error';
  /**
   * Seconds the check took.
   */
  duration: number;
  /**
   * Why it failed, was skipped or errored; empty on a pass.
   */
  message: string;
  counterexample: unknown;
  /**
   * For a failure, the one clause that broke when the check knows it (one of clauses); null otherwise.
   */
  clause?: string | null;
  /**
   * For a failure, what the implementation returned beside what the clause expected, when the check says; null otherwise.
   */
  mismatch?: null | ReportMismatch;
  /**
   * For an exception the implementation raised or an interrupted example, its own frame as path:line in function: source; null otherwise.
   */
  location?: string | null;
}
/**
 * What the implementation returned and what the broken clause expected: returned and expected are JSON values of any kind.
 */
export interface ReportMismatch {
  returned: unknown;
  expected: unknown;
}
/**
 * One check an interrupted run did not run.
 */
export interface ReportNotRun {
  /**
   * The name of the implementation.
   */
  implementation: string;
  /**
   * The check's stable id.
   */
  checkId: string;
}
/**
 * Totals.
 */
export interface ReportFooter {
  /**
   * Number of results.
   */
  total: number;
  /**
   * Results that passed.
   */
  passed: number;
  /**
   * Results that failed.
   */
  failed: number;
  /**
   * Results that were skipped.
   */
  skipped: number;
  /**
   * Expected failures that failed.
   */
  xfailed: number;
  /**
   * Results that errored.
   */
  errored: number;
  /**
   * Seconds the whole run took.
   */
  duration: number;
  /**
   * Whether Ctrl-C stopped the run before every check ran (notRun lists the rest).
   */
  interrupted?: boolean;
}
/**
 * How much one turn's prompt may carry, and which projection tiers are on (BUD). Absent or null limits mean no limit.
 */
export interface ContextBudget {
  /**
   * Most items the projection may keep; null or absent: no item limit.
   */
  maxItems?: number | null;
  /**
   * Most approximate characters (SIZE) the projection aims for; null or absent: no character limit.
   */
  maxApproxChars?: number | null;
  /**
   * Number of leading items protected as the pinned prefix.
   */
  pinnedPrefixItems?: number;
  /**
   * Tier-1 keep-N: how many of the newest tool results keep their output; null or absent: Tier-1 off.
   */
  maxRecentToolResults?: number | null;
  /**
   * Tier-2 switch: clear reasoning items before the last user message.
   */
  trimOldReasoning?: boolean;
}
/**
 * The items one turn's prompt carries and the report of how they were chosen (PRJ).
 */
export interface ContextProjection {
  /**
   * The projected items, in their original order.
   */
  items: unknown[];
  /**
   * What the projection kept and dropped.
   */
  report: ContextReport;
}
/**
 * An error as the payload of an event (COMPACT_FAILED, ERROR; EVT-5): what kind of error it was and its message.
 */
export interface EventError {
  /**
   * The error's kind: the name its language gives the error's type or class (RuntimeError, TypeError, ...).
   */
  error: string;
  /**
   * The error's message (may be empty).
   */
  message: string;
}
/**
 * Measure one item with a functions target's approx_chars (SIZE-1 .. SIZE-6). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface ApproxCharsRequest {
  seq: unknown;
  /**
   * The command: approx_chars.
   */
  cmd: 'approx_chars';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  item: unknown;
}
/**
 * The answer to approx_chars when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface ApproxCharsResultOutcome {
  seq: unknown;
  /**
   * The item's approximate size in code points.
   */
  result: number;
}
/**
 * The answer to any request the harness does not implement: the request's seq (any JSON value, echoed unchanged) and why; the suite reports the check as skipped.
 */
export interface SkippedOutcome {
  seq: unknown;
  skipped: Skipped;
}
/**
 * The harness does not implement this request; the suite reports the check as skipped.
 */
export interface Skipped {
  /**
   * Why, for the report (e.g. 'memory is not implemented').
   */
  reason: string;
}
/**
 * The answer to a request whose operation raised an error inside the harness: the request's seq (any JSON value, echoed unchanged) and the error; the suite reports the check as errored.
 */
export interface ErroredOutcome {
  seq: unknown;
  errored: Errored;
}
/**
 * The operation raised an error inside the harness; the suite reports the check as errored.
 */
export interface Errored {
  /**
   * What went wrong, in one line if possible.
   */
  message: string;
  /**
   * The implementation's stack trace, or null.
   */
  traceback?: string | null;
}
/**
 * A line a harness writes, before its response, to call one of the suite's objects (HRN-24); the suite answers with a reply line. Its seq is the seq of the request being answered.
 */
export interface Call {
  seq: unknown;
  /**
   * What to call.
   */
  call: {
    /**
     * Unique among the calls of the harness process; the reply carries it, and an error can name it (HRN-27).
     */
    id: number;
    /**
     * The name of the suite's object, as a request gave it (or a call's result, for a memory).
     */
    object: string;
    /**
     * The method (HRN-25).
     */
    method: string;
    /**
     * The method's arguments.
     */
    args: unknown[];
  };
}
/**
 * Compact a memory with a compact-policy target. The harness builds a scripted model client that answers the policy's calls with model.responses in order and raises once they are used up, and reports the prompts it received. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface CompactRequest {
  seq: unknown;
  /**
   * The command: compact.
   */
  cmd: 'compact';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The policy's kind and parameters: the target's options from the start response, unchanged.
   */
  policy: TargetOptions;
  /**
   * The memory to judge or compact.
   */
  snapshot: MemorySnapshot;
  /**
   * The scripted model the policy calls.
   */
  model: ScriptedModel;
}
/**
 * What the suite needs to know about a target beyond its claims; for a compact policy, also the policy's kind and parameters, which every should_compact and compact request passes back as its policy; for a memory compressor, which of the spec's it ports and the arguments the generic checks build it with.
 */
export interface TargetOptions {
  /**
   * A compact policy's kind: llm (summarizes with a model, LLM-n clauses) or structured (StructuredSummaryCompactPolicy rules, no model); a memory compressor's: windowed (WindowedMemoryCompressor, CMP-8) or policy-adapter (CompactPolicyMemoryCompressor, CMP-6, CMP-7).
   */
  kind?: 'llm' | 'structured' | 'windowed' | 'policy-adapter';
  /**
   * An llm policy's keep-recent count: it compacts above this many items and keeps as many recent ones.
   */
  maxItems?: number;
  /**
   * A structured policy's budget.
   */
  budget?: ContextBudget;
  /**
   * false for a projector that does not apply Tier-1 and Tier-2 (DefaultContextProjector).
   */
  tiers?: boolean;
  /**
   * true for a projector whose exact algorithm is PairSafeContextProjector's (SPEC §5.5).
   */
  pairSafe?: boolean;
  /**
   * The providers a wire-valid claim is made for (SPEC §1.6, WIRE-18); required with that claim.
   *
   * @minItems 1
   */
  providers?: [
    'openai-responses' | 'openai-chat' | 'anthropic',
    ...('openai-responses' | 'openai-chat' | 'anthropic')[]
  ];
  /**
   * A memory compressor's constructor arguments for the generic checks (HRN-28), each a JSON value (a compact policy is given as its options: kind and parameters).
   */
  args?: unknown[];
  /**
   * Where an agent memory's or a session store's persistent form keeps its state, for memory_open and store_open (HRN-29): an SQLite database file, a PostgreSQL database (the suite passes a conninfo), or a directory of files (a store, SES-13). Absent: the target keeps nothing the suite can open again.
   */
  storage?: 'sqlite' | 'postgresql' | 'directory';
  /**
   * false for a runtime without a step bound (RUN-9 is a MAY); absent: the runtime has one.
   */
  maxSteps?: false;
}
/**
 * The answers of a scripted model client, one per call, in order.
 */
export interface ScriptedModel {
  /**
   * Call n gets element n: a ModelResult document to return, a ModelError to raise, or null to return no result. A call beyond the last raises.
   */
  responses: (ModelResult | ModelError | null)[];
}
/**
 * A model's answer.
 */
export interface ModelResult {
  /**
   * The answer's text, or null.
   */
  outputText?: string | null;
  /**
   * Items to append to memory (assistant messages, tool-call messages, reasoning).
   */
  memoryItems?: unknown[];
  /**
   * Tools to call before the next step; none means this is the final answer.
   */
  toolCalls?: ToolCall[];
}
/**
 * A tool call the model requested.
 */
export interface ToolCall {
  /**
   * The call's id; its tool result carries it as call_id.
   */
  callId: string;
  /**
   * The tool's name.
   */
  name: string;
  /**
   * The arguments as JSON text.
   */
  arguments: string;
}
/**
 * A scripted model call that raises instead of answering.
 */
export interface ModelError {
  /**
   * The message of the error the scripted model raises.
   */
  error: string;
}
/**
 * The answer to compact when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface CompactResultOutcome {
  seq: unknown;
  /**
   * The policy's result and the prompts the scripted model received.
   */
  result: Compacted;
}
/**
 * What a compaction produced, and what the policy asked the model.
 */
export interface Compacted {
  /**
   * The policy's result.
   */
  result: CompactResult;
  /**
   * Every prompt the scripted model received, in order, including one that found the script used up.
   */
  prompts: ModelPrompt[];
}
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
/**
 * Call a method of a memory compressor (HRN-28). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface CompressorCallRequest {
  seq: unknown;
  /**
   * The command: compressor_call.
   */
  cmd: 'compressor_call';
  /**
   * The compressor's handle, from compressor_new.
   */
  handle: string;
  /**
   * The method.
   */
  method: 'compress' | 'get_last_result';
  /**
   * compress: [MemorySnapshot]; get_last_result: [].
   */
  args: unknown[];
}
/**
 * The answer to compressor_call when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface CompressorCallResultOutcome {
  seq: unknown;
  result: unknown;
}
/**
 * The answer to a request of a runtime, a memory compressor, a memory or a session store whose operation raised an error (HRN-27): the request's seq (any JSON value, echoed unchanged) and the error, as the suite rebuilds it; a check that expects the error reads its kind and message, any other check is reported as errored.
 */
export interface RaisedOutcome {
  seq: unknown;
  errored: RaisedError;
}
/**
 * An error the operation raised, as the suite rebuilds it (HRN-27): its message, what kind of error it is, and which error it is, so that the same error seen twice (an event's payload and the failed request) is one error in the suite.
 */
export interface RaisedError {
  /**
   * What went wrong, in one line if possible.
   */
  message: string;
  /**
   * The implementation's stack trace, or null.
   */
  traceback?: string | null;
  /**
   * What kind of error, for a check that asks: a bad value, a value of the wrong type, something not found, an operation the object's state does not allow, or a wait that ran out (a database another connection held past the busy timeout, MEM-21) (null: none of these).
   */
  kind?: 'value' | 'type' | 'lookup' | 'state' | 'timeout' | null;
  /**
   * A name for this error, unique within the harness process: every report of the same error carries the same id.
   */
  id?: string | null;
  /**
   * The id of the call whose error this is or wraps: an error of one of the suite's objects, passed on.
   */
  call?: number | null;
}
/**
 * Forget a memory compressor (HRN-28). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface CompressorDropRequest {
  seq: unknown;
  /**
   * The command: compressor_drop.
   */
  cmd: 'compressor_drop';
  /**
   * The compressor's handle.
   */
  handle: string;
}
/**
 * The answer to compressor_drop when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface CompressorDropResultOutcome {
  seq: unknown;
  /**
   * Nothing.
   */
  result: null;
}
/**
 * Build a memory compressor of a memory-compressor target from constructor arguments (HRN-28). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface CompressorNewRequest {
  seq: unknown;
  /**
   * The command: compressor_new.
   */
  cmd: 'compressor_new';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The constructor's arguments, in order: each a JSON value or one of the suite's objects by name.
   */
  args: (CompressorValueArgument | CompressorObjectArgument)[];
}
/**
 * A constructor argument given as its value, any JSON value.
 */
export interface CompressorValueArgument {
  value: unknown;
}
/**
 * A constructor argument that is one of the suite's objects, by name.
 */
export interface CompressorObjectArgument {
  /**
   * The name of one of the suite's objects (a compact policy: calls should_compact and compact, HRN-25).
   */
  object: string;
}
/**
 * The answer to compressor_new when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface CompressorNewResultOutcome {
  seq: unknown;
  /**
   * The compressor's handle.
   */
  result: {
    /**
     * An opaque name, unique within the harness process.
     */
    handle: string;
  };
}
/**
 * A handle naming an object that lives in the harness.
 */
export interface Created {
  /**
   * Opaque, unique within the harness process; later requests name the object by it.
   */
  handle: string;
}
/**
 * List the files the tool calls of items read or modify, with a functions target's file tracking (FIL-1 .. FIL-7). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface ExtractFileOperationsRequest {
  seq: unknown;
  /**
   * The command: extract_file_operations.
   */
  cmd: 'extract_file_operations';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The items, oldest first.
   */
  items: unknown[];
  /**
   * true for the files read, false for the files modified.
   */
  reads: boolean;
}
/**
 * The answer to extract_file_operations when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface ExtractFileOperationsResultOutcome {
  seq: unknown;
  /**
   * The paths, in order of first appearance, each once.
   */
  result: string[];
}
/**
 * Call one method of a agent memory created by memory_new. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface MemoryCallRequest {
  seq: unknown;
  /**
   * The command: memory_call.
   */
  cmd: 'memory_call';
  /**
   * The opaque handle the harness returned when it created the object.
   */
  handle: string;
  /**
   * The AgentMemory method to call (MEM-n). Arguments and results in JSON: add_user_input [value] -> null; add_output_items [items] -> null; add_tool_output [callId, output] -> null; get_items [] -> items; get_summary [] -> string or null; set_summary [summary] -> null; clear [] -> null; snapshot [] -> a MemorySnapshot document; restore [MemorySnapshot document] -> null.
   */
  method:
    | 'add_user_input'
    | 'add_output_items'
    | 'add_tool_output'
    | 'get_items'
    | 'get_summary'
    | 'set_summary'
    | 'clear'
    | 'snapshot'
    | 'restore';
  /**
   * The method's arguments, in order.
   */
  args: unknown[];
}
/**
 * The answer to memory_call when it succeeded: the request's seq (any JSON value, echoed unchanged) and the method's result, any JSON value (null for a method that returns nothing; see the request's method).
 */
export interface MemoryCallResultOutcome {
  seq: unknown;
  result: unknown;
}
/**
 * Forget the object behind a handle; the suite never uses the handle again. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface MemoryDropRequest {
  seq: unknown;
  /**
   * The command: memory_drop.
   */
  cmd: 'memory_drop';
  /**
   * The opaque handle the harness returned when it created the object.
   */
  handle: string;
}
/**
 * The answer to memory_drop when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface MemoryDropResultOutcome {
  seq: unknown;
  /**
   * Nothing.
   */
  result: null;
}
/**
 * Create a fresh, empty agent memory of a agent-memory target; the harness keeps it under a new handle until memory_drop. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface MemoryNewRequest {
  seq: unknown;
  /**
   * The command: memory_new.
   */
  cmd: 'memory_new';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The name of one of the suite's objects, a memory compressor the memory calls back after each add that appends (compress [MemorySnapshot] -> a MemorySnapshot document; HRN-30), or null for none. A target that takes no compressor answers skipped.
   */
  compressor?: string | null;
}
/**
 * The answer to memory_new when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface MemoryNewResultOutcome {
  seq: unknown;
  /**
   * The new object's handle.
   */
  result: Created;
}
/**
 * Open an agent-memory target's persistent form on stored state, as a new object behind a handle (HRN-29); memory_drop closes it. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface MemoryOpenRequest {
  seq: unknown;
  /**
   * The command: memory_open.
   */
  cmd: 'memory_open';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * Which stored state to open (HRN-29).
   */
  storage: {
    /**
     * Where the state is kept: a path the suite chose (an SQLite database file, or a directory for a store kept in files), or the address the target's backend takes (a PostgreSQL conninfo).
     */
    address: string;
    /**
     * The session whose state the memory holds; a blank one is the target's to refuse (MEM-15), and a check sends one on purpose.
     */
    sessionId: string;
    /**
     * The table the state is kept in, or null for the target's default; a name MEM-16 refuses is the target's to refuse, and a check sends some on purpose.
     */
    table?: string | null;
    /**
     * The seconds an operation waits for a database another connection holds before it fails (MEM-21, MEM-27), or null for the target's default.
     */
    busyTimeout?: number | null;
  };
  /**
   * The name of one of the suite's objects, a memory compressor the memory calls back after each add that appends (compress [MemorySnapshot] -> a MemorySnapshot document; HRN-30), or null for none. A target that takes no compressor answers skipped.
   */
  compressor?: string | null;
}
/**
 * The answer to memory_open when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface MemoryOpenResultOutcome {
  seq: unknown;
  /**
   * The new object's handle.
   */
  result: Created;
}
/**
 * Parse a summarizer model's output with a summary-parser target (PRS-n). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface ParseSummaryRequest {
  seq: unknown;
  /**
   * The command: parse_summary.
   */
  cmd: 'parse_summary';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The model's output text.
   */
  text: string;
}
/**
 * The answer to parse_summary when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface ParseSummaryResultOutcome {
  seq: unknown;
  /**
   * The parsed summary.
   */
  result: StructuredSummary;
}
/**
 * What the forgiving parser read from a summarizer model's output (PRS).
 */
export interface StructuredSummary {
  /**
   * The goal, trimmed; null when absent or blank.
   */
  goal?: string | null;
  /**
   * The 'completed' entries.
   */
  completed?: string[];
  /**
   * The 'pending' entries.
   */
  pending?: string[];
  /**
   * The 'decisions' entries.
   */
  decisions?: string[];
  /**
   * The 'errors' entries.
   */
  errors?: string[];
  /**
   * The 'testResults' entries.
   */
  testResults?: string[];
  /**
   * The 'openQuestions' entries.
   */
  openQuestions?: string[];
  /**
   * Files read, from a '## Files Read' section (FIL).
   */
  readFiles?: string[];
  /**
   * Files modified, from a '## Files Modified' section (FIL).
   */
  modifiedFiles?: string[];
  /**
   * False when no JSON object was found in the output.
   */
  parsed?: boolean;
  /**
   * When parsed is false, the trimmed raw output; when parsed is true, the compact JSON text of the object that was parsed (PRS-11).
   */
  text?: string;
}
/**
 * Project items under a budget with a projector target (PRJ-n). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface ProjectRequest {
  seq: unknown;
  /**
   * The command: project.
   */
  cmd: 'project';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The items to project, oldest first.
   */
  items: unknown[];
  /**
   * The budget, or null for no limits and no tiers.
   */
  budget: ContextBudget | null;
}
/**
 * The answer to project when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface ProjectResultOutcome {
  seq: unknown;
  /**
   * The projection.
   */
  result: ContextProjection;
}
/**
 * Render a structured summary as the Markdown text a memory stores, with a functions target's renderer (PRS-13, PRS-14). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface RenderSummaryRequest {
  seq: unknown;
  /**
   * The command: render_summary.
   */
  cmd: 'render_summary';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The summary to render.
   */
  summary: StructuredSummary;
}
/**
 * The answer to render_summary when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface RenderSummaryResultOutcome {
  seq: unknown;
  /**
   * The rendered text.
   */
  result: string;
}
/**
 * A call that returned: the seq of the request being answered, the call's id and the result, any JSON value.
 */
export interface ReplyResult {
  seq: unknown;
  /**
   * Always reply.
   */
  cmd: 'reply';
  /**
   * The id of the call answered.
   */
  id: number;
  result: unknown;
}
/**
 * A call that raised: the seq of the request being answered, the call's id and the error.
 */
export interface ReplyErrored {
  seq: unknown;
  /**
   * Always reply.
   */
  cmd: 'reply';
  /**
   * The id of the call answered.
   */
  id: number;
  errored: CallError;
}
/**
 * The error a call raised in the suite; the harness raises it in turn, naming the call (HRN-27).
 */
export interface CallError {
  /**
   * The error's text.
   */
  message: string;
  /**
   * The name of the error's type in the suite.
   */
  type: string;
}
/**
 * Call a method of a session of a runtime target (HRN-26). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface RuntimeCallRequest {
  seq: unknown;
  /**
   * The command: runtime_call.
   */
  cmd: 'runtime_call';
  /**
   * The session's handle, from runtime_new.
   */
  handle: string;
  /**
   * The method.
   */
  method: 'run' | 'compact' | 'snapshot' | 'restore' | 'save' | 'session_id' | 'last_compact_result';
  /**
   * The method's arguments (HRN-26).
   */
  args: unknown[];
}
/**
 * The answer to runtime_call when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface RuntimeCallResultOutcome {
  seq: unknown;
  result: unknown;
}
/**
 * Forget a session (HRN-26). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface RuntimeDropRequest {
  seq: unknown;
  /**
   * The command: runtime_drop.
   */
  cmd: 'runtime_drop';
  /**
   * The session's handle, from runtime_new.
   */
  handle: string;
}
/**
 * The answer to runtime_drop when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface RuntimeDropResultOutcome {
  seq: unknown;
  /**
   * Nothing.
   */
  result: null;
}
/**
 * Build an agent of a runtime target from the suite's parts and open one session of it, new or resumed (HRN-25). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface RuntimeNewRequest {
  seq: unknown;
  /**
   * The command: runtime_new.
   */
  cmd: 'runtime_new';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * What the agent is built from (RUN-1): the suite's parts by name, the rest as values.
   */
  config: {
    /**
     * The name of the suite's model client (calls: create), for the calls that reach it (HRN-24).
     */
    model: string;
    /**
     * The name of the suite's memory factory (calls: create, answering the name of a memory), for the calls that reach it (HRN-24).
     */
    memoryFactory: string;
    /**
     * The model name every prompt carries.
     */
    modelName?: string;
    /**
     * The system prompt, or null.
     */
    systemPrompt?: string | null;
    /**
     * The name of the suite's context projector (calls: project), or null for none.
     */
    projector?: string | null;
    /**
     * The budget the projector is given, or null.
     */
    budget?: ContextBudget | null;
    /**
     * The name of the suite's compact policy (calls: should_compact, compact), or null for none.
     */
    compactPolicy?: string | null;
    /**
     * The tools (calls: call), in the order they are registered.
     *
     * Items: One of the tools (calls: call).
     */
    tools?: {
      /**
       * Its name: the tool's name, or an observer's name for the messages of EVT-11.
       */
      name: string;
      /**
       * The name of the suite's object, for the calls that reach it (HRN-24).
       */
      object: string;
    }[];
    /**
     * The event listeners (calls: event), in the order they are registered.
     *
     * Items: One of the event listeners (calls: event).
     */
    eventListeners?: {
      /**
       * Its name: the tool's name, or an observer's name for the messages of EVT-11.
       */
      name: string;
      /**
       * The name of the suite's object, for the calls that reach it (HRN-24).
       */
      object: string;
    }[];
    /**
     * The lifecycle hooks (calls: lifecycle), in the order they are registered.
     *
     * Items: One of the lifecycle hooks (calls: lifecycle).
     */
    lifecycleHooks?: {
      /**
       * Its name: the tool's name, or an observer's name for the messages of EVT-11.
       */
      name: string;
      /**
       * The name of the suite's object, for the calls that reach it (HRN-24).
       */
      object: string;
    }[];
    /**
     * The name of the suite's session store (calls: save, load, delete, session_ids), or null for none.
     */
    sessionStore?: string | null;
    /**
     * The step bound of RUN-9, or null for the runtime's own.
     */
    maxSteps?: number | null;
    /**
     * Resume this session from the store instead of starting a new one (SES-7), or null.
     */
    resumeSessionId?: string | null;
  };
}
/**
 * The answer to runtime_new when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface RuntimeNewResultOutcome {
  seq: unknown;
  /**
   * The session's handle.
   */
  result: {
    /**
     * An opaque name, unique within the harness process.
     */
    handle: string;
  };
}
/**
 * Ask a compact-policy target whether it would compact a memory in this state (CMP-n). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface ShouldCompactRequest {
  seq: unknown;
  /**
   * The command: should_compact.
   */
  cmd: 'should_compact';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The policy's kind and parameters: the target's options from the start response, unchanged.
   */
  policy: TargetOptions;
  /**
   * The memory to judge or compact.
   */
  snapshot: MemorySnapshot;
}
/**
 * The answer to should_compact when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface ShouldCompactResultOutcome {
  seq: unknown;
  /**
   * Whether the policy would compact now.
   */
  result: boolean;
}
/**
 * The first request: the suite's protocol version. The harness answers with its implementation's metadata and targets. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface StartRequest {
  seq: unknown;
  /**
   * The command: start.
   */
  cmd: 'start';
  /**
   * The protocol version the suite speaks: 1.
   */
  version: number;
}
/**
 * The answer to start when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface StartResultOutcome {
  seq: unknown;
  /**
   * The protocol version and the implementation.
   */
  result: Started;
}
/**
 * The protocol version and the implementation behind the harness.
 */
export interface Started {
  /**
   * The protocol version the harness speaks; the suite stops unless it is the one it sent (1).
   */
  version: number;
  /**
   * What is being checked.
   */
  implementation: Implementation;
}
/**
 * The implementation behind the harness; the report shows it.
 */
export interface Implementation {
  /**
   * The implementation's name; each target is reported as <name>:<target name>.
   */
  name: string;
  /**
   * The programming language, lower case (python, javascript, java, ...).
   */
  language: string;
  /**
   * The implementation's version (may be empty).
   */
  version: string;
  /**
   * Where to read about it (may be empty).
   */
  homepage: string;
  /**
   * The components it implements, each checked on its own.
   */
  targets: Target[];
}
/**
 * One implementation of one component, with the claims it makes.
 */
export interface Target {
  /**
   * Unique within the harness; requests name the target by it.
   */
  name: string;
  /**
   * Which component it implements, and so which requests it answers.
   */
  component:
    | 'projector'
    | 'compact-policy'
    | 'agent-memory'
    | 'summary-parser'
    | 'session-store'
    | 'functions'
    | 'runtime'
    | 'memory-compressor';
  /**
   * What it claims (SPEC §1.3): which checks apply.
   *
   * @minItems 1
   */
  claims: [
    'generic' | 'pair-integrity' | 'wire-valid' | 'exact' | 'llm-summary',
    ...('generic' | 'pair-integrity' | 'wire-valid' | 'exact' | 'llm-summary')[]
  ];
  /**
   * What the checks need to know about it.
   */
  options?: TargetOptions;
}
/**
 * The last request: the harness answers, then exits with status 0. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface StopRequest {
  seq: unknown;
  /**
   * The command: stop.
   */
  cmd: 'stop';
}
/**
 * The answer to stop when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface StopResultOutcome {
  seq: unknown;
  /**
   * Nothing.
   */
  result: null;
}
/**
 * Call one method of a session store created by store_new. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface StoreCallRequest {
  seq: unknown;
  /**
   * The command: store_call.
   */
  cmd: 'store_call';
  /**
   * The opaque handle the harness returned when it created the object.
   */
  handle: string;
  /**
   * The session-store method to call (SES-n). Arguments and results in JSON: save [AgentSessionSnapshot document] -> null; load [sessionId] -> an AgentSessionSnapshot document or null; delete [sessionId] -> whether there was one; session_ids [] -> the ids, sorted. A harness whose store lacks delete or session_ids answers skipped.
   */
  method: 'save' | 'load' | 'delete' | 'session_ids';
  /**
   * The method's arguments, in order.
   */
  args: unknown[];
}
/**
 * The answer to store_call when it succeeded: the request's seq (any JSON value, echoed unchanged) and the method's result, any JSON value (null for a method that returns nothing; see the request's method).
 */
export interface StoreCallResultOutcome {
  seq: unknown;
  result: unknown;
}
/**
 * Forget the object behind a handle; the suite never uses the handle again. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface StoreDropRequest {
  seq: unknown;
  /**
   * The command: store_drop.
   */
  cmd: 'store_drop';
  /**
   * The opaque handle the harness returned when it created the object.
   */
  handle: string;
}
/**
 * The answer to store_drop when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface StoreDropResultOutcome {
  seq: unknown;
  /**
   * Nothing.
   */
  result: null;
}
/**
 * Create a fresh, empty session store of a session-store target; the harness keeps it under a new handle until store_drop. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface StoreNewRequest {
  seq: unknown;
  /**
   * The command: store_new.
   */
  cmd: 'store_new';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
}
/**
 * The answer to store_new when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface StoreNewResultOutcome {
  seq: unknown;
  /**
   * The new object's handle.
   */
  result: Created;
}
/**
 * Open a session-store target's persistent form on stored state, as a new object behind a handle (HRN-29); store_drop closes it. The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface StoreOpenRequest {
  seq: unknown;
  /**
   * The command: store_open.
   */
  cmd: 'store_open';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * Which stored state to open (HRN-29).
   */
  storage: {
    /**
     * Where the state is kept: a path the suite chose (an SQLite database file, or a directory for a store kept in files), or the address the target's backend takes (a PostgreSQL conninfo).
     */
    address: string;
    /**
     * The table the state is kept in, or null for the target's default; a name MEM-16 refuses is the target's to refuse, and a check sends some on purpose.
     */
    table?: string | null;
    /**
     * The seconds an operation waits for a database another connection holds before it fails (MEM-21, MEM-27), or null for the target's default.
     */
    busyTimeout?: number | null;
  };
}
/**
 * The answer to store_open when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface StoreOpenResultOutcome {
  seq: unknown;
  /**
   * The new object's handle.
   */
  result: Created;
}
/**
 * Find where a compaction cuts items with a functions target's turn-boundary cut (CUT-1 .. CUT-6). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface TurnBoundaryCutRequest {
  seq: unknown;
  /**
   * The command: turn_boundary_cut.
   */
  cmd: 'turn_boundary_cut';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The items, oldest first.
   */
  items: unknown[];
  /**
   * The naive cut: how many leading items a compaction would summarize before the cut moves to a turn boundary. Any integer: the function clamps it into [0, len(items)] (CUT-1).
   */
  naiveCut: number;
}
/**
 * The answer to turn_boundary_cut when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface TurnBoundaryCutResultOutcome {
  seq: unknown;
  /**
   * The cut: the items before it are summarized, the rest kept.
   */
  result: number;
}
/**
 * A point in a session's life, as a lifecycle hook receives it (EVT-3, EVT-8). Its payload is any JSON value, by type: the user input (SESSION_START), the final output or null (SESSION_END), a ModelPrompt document (BEFORE_MODEL_REQUEST), a ModelResult document (AFTER_MODEL_RESPONSE, AFTER_TURN), a ToolCall document (BEFORE_TOOL_CALL), the tool's output (AFTER_TOOL_CALL), a MemorySnapshot document (BEFORE_COMPACT), a CompactResult document (ON_COMPACT), or null.
 */
export interface LifecycleEvent {
  /**
   * The event's type as its upper-case name: BEFORE_COMPACT, ON_COMPACT, and the others an implementation has (the reference's: SESSION_START, SESSION_END, BEFORE_TURN, AFTER_TURN, BEFORE_MODEL_REQUEST, AFTER_MODEL_RESPONSE, BEFORE_TOOL_CALL, AFTER_TOOL_CALL; EVT-3).
   */
  type: string;
  /**
   * The event's message: 'auto' or 'manual' for BEFORE_COMPACT and ON_COMPACT (EVT-4), the tool's name for the tool events of the reference.
   */
  message: string | null;
  /**
   * The step of the run, counting from 0 within one run; null outside a run (a manual compaction, the start and end of a session).
   */
  step: number | null;
  payload?: unknown;
  /**
   * The id of the session the event belongs to (SES-17).
   */
  sessionId: string;
}
/**
 * Everything needed to resume a session (SES).
 */
export interface AgentSessionSnapshot {
  /**
   * The session's id: not blank, so at least one character above U+0020 (SES-17).
   */
  sessionId: string;
  /**
   * The session memory's snapshot.
   */
  memory?: MemorySnapshot;
  /**
   * The last compaction's result, manual or automatic, or null.
   */
  compactResult?: CompactResult | null;
}
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
