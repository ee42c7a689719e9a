import { z } from 'zod'
import { EmailAccount, EmailAccountName } from '../../settings/sections/email'
import { route } from '../defineContract'

const Check = z.object({ ok: z.boolean(), message: z.string() })

export const EmailTestResult = z.object({ imap: Check, smtp: Check })
export type EmailTestResult = z.infer<typeof EmailTestResult>

export const emailRoutes = {
  'email.test': route({
    summary:
      'Logs in to the IMAP and SMTP servers of an account as the Settings form shows it (the saved password unless one is typed); nothing is sent or stored.',
    input: z.object({
      name: EmailAccountName,
      account: EmailAccount,
      /** A password typed but not saved yet; never stored by the test. */
      password: z.string().min(1).max(16_384).optional(),
    }),
    output: EmailTestResult,
  }),
}
