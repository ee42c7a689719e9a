export type { AccountCheck, ConnectionCheck } from './testConnection'
export type { EmailEnvironment } from './types'

/** The `email` toolset, loaded on demand (imapflow, mailparser and nodemailer load when a method runs). */
export async function loadEmailToolset(env: import('./types').EmailEnvironment) {
  const { createEmailToolset } = await import('./toolset/emailToolset')
  return createEmailToolset(env)
}

/** Logs in to an account's IMAP and SMTP servers (saved, or a draft with its password) and reports each. */
export async function testEmailAccount(
  ...args: Parameters<typeof import('./testConnection').testAccount>
): ReturnType<typeof import('./testConnection').testAccount> {
  const { testAccount } = await import('./testConnection')
  return testAccount(...args)
}

/** IPC handlers of the e-mail service (Settings → E-mail's Test connection). */
export function emailHandlers(env: import('./types').EmailEnvironment) {
  return {
    'email.test': async (input: {
      name: string
      account: import('../../shared/settings').EmailAccount
      password?: string | undefined
    }) => testEmailAccount(env, input.name, input.account, input.password),
  }
}

/** Reports new messages in a folder that match a rule (IMAP IDLE, else polling): the automations' mail trigger. */
export async function watchMailFolder(
  ...args: Parameters<typeof import('./imap/watchFolder').watchFolder>
): ReturnType<typeof import('./imap/watchFolder').watchFolder> {
  const { watchFolder } = await import('./imap/watchFolder')
  return watchFolder(...args)
}
export type { FolderRule, FolderWatch, NewMail } from './imap/watchFolder'
