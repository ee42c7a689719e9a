import type { InteractionMode } from './sections/providers'

/** Below this context window a model is driven through the single `cli` tool. */
export const CLI_MODE_CONTEXT_LIMIT = 128_000

export interface InteractionModeInput {
  /** The provider's explicit setting; `auto` or undefined means choose by context window. */
  explicit?: InteractionMode | 'auto' | undefined
  /** The model's context window in tokens, when known. */
  contextWindow?: number | undefined
}

/**
 * Explicit setting wins; otherwise `cli` below 128,000 tokens of context, else `api`.
 * An unknown context window counts as small: local and unknown models do better with the terminal.
 */
export function selectInteractionMode(input: InteractionModeInput = {}): InteractionMode {
  if (input.explicit === 'api' || input.explicit === 'cli') return input.explicit
  const window = input.contextWindow
  if (window === undefined || !Number.isFinite(window) || window <= 0) return 'cli'
  return window < CLI_MODE_CONTEXT_LIMIT ? 'cli' : 'api'
}
