/* eslint-disable */
/**
 * Generated from schemas/harness/runtime-new-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

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
