import { z } from 'zod'

/** Who decided an approval: a rule or the risk level, the user on a card, the card's timeout, a non-interactive level. */
export const ApprovalBy = z.enum(['policy', 'user', 'timeout', 'non-interactive'])
export type ApprovalBy = z.infer<typeof ApprovalBy>
