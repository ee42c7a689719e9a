import { z } from 'zod'

/** The embedded llama.cpp runtime (provider kind `local`) and Ollama detection. */
export const LocalModelSettings = z.looseObject({
  /** Minutes without a request after which the loaded model is freed; 0 keeps it loaded. */
  idleUnloadMinutes: z
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(10),
  /** CPU threads for generation; `null`: the machine's math cores. */
  threads: z.number().int().min(1).max(256).nullable().default(null),
  /** Where Bureau looks for a running Ollama (at start and in Settings). */
  ollamaUrl: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:11434'),
})
export type LocalModelSettings = z.output<typeof LocalModelSettings>
