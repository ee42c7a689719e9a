import { z } from 'zod'

export const ApprovalPolicy = z.enum(['allow', 'ask', 'deny'])
export type ApprovalPolicy = z.output<typeof ApprovalPolicy>

/** `toolset` or `toolset.method` (the method key as declared, e.g. `web.click`). */
export const ApprovalRuleKey = z
  .string()
  .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-zA-Z0-9]*)?$/, 'a toolset name or toolset.method')

/**
 * What the model may do without asking. A rule for `toolset.method` wins over one for `toolset`,
 * which wins over the risk level. Writes stay inside the workspace, where backups and history undo them.
 */
export const ApprovalSettings = z.looseObject({
  read: ApprovalPolicy.default('allow'),
  write: ApprovalPolicy.default('allow'),
  external: ApprovalPolicy.default('ask'),
  rules: z.record(ApprovalRuleKey, ApprovalPolicy).default({}),
  /** Where nobody can be asked (the bridge; `bureau chat` unless `--approve`): what an `ask` becomes. */
  nonInteractive: z.enum(['read', 'write', 'all']).default('write'),
  /** A pending approval nobody answers is denied after this. */
  timeoutSeconds: z.number().int().min(5).max(3600).default(120),
})
export type ApprovalSettings = z.output<typeof ApprovalSettings>
