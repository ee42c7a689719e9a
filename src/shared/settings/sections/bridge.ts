import { z } from 'zod'

const MIB = 1024 * 1024

/** The OpenAI-compatible `/v1` bridge of `bureau serve` (flags on `serve` win over these). */
export const BridgeSettings = z.looseObject({
  /** Agent runs executing at once; more wait in the queue. */
  maxConcurrent: z.number().int().min(1).max(64).default(4),
  /** Requests allowed to wait for a free slot; beyond that the bridge answers 429. */
  maxQueued: z.number().int().min(0).max(10_000).default(32),
  /** Largest JSON request body (413 above). */
  maxRequestBytes: z
    .number()
    .int()
    .min(1024)
    .max(1024 * MIB)
    .default(16 * MIB),
  /** Largest uploaded file (413 above). */
  maxFileBytes: z
    .number()
    .int()
    .min(1)
    .max(4096 * MIB)
    .default(64 * MIB),
  /** All files of `/v1/files` together (uploads and files the agent returned); 413 above. */
  maxStorageBytes: z
    .number()
    .int()
    .min(1)
    .max(1024 * 1024 * MIB)
    .default(2048 * MIB),
  /** Hours a file is kept before it expires and is removed (its `expires_at`). */
  fileExpiryHours: z
    .number()
    .min(1 / 60)
    .max(24 * 365)
    .default(24 * 7),
  /** Bridge token names whose requests get the user's memories (the prompt block and the memory toolset); none by default. */
  memoryTokens: z.array(z.string().max(64)).max(100).default([]),
})
export type BridgeSettings = z.output<typeof BridgeSettings>
