import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { EmailEnvironment } from '../../../src/main/email'
import { loadEmailToolset } from '../../../src/main/email'
import { createToolSession, invoke, type ToolResult, type ToolSession } from '../../../src/main/tools'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import type { EmailAccount, EmailSettings } from '../../../src/shared/settings'
import { EmailSettings as EmailSettingsSchema } from '../../../src/shared/settings'
import { fixtureEntries, fixturePath } from '../../support/fixtures'
import { type Dovecot, type SmtpRecorder, startDovecot, startSmtpRecorder } from '../../support/mailServers'
import { describeNeeding } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'

export const PASSWORD = 'alice-secret'

/** Server suites run where Dovecot is; elsewhere they skip with the reason, and under BUREAU_CI they fail. */
export function describeWithDovecot(name: string, body: () => void): void {
  describeNeeding(['dovecot'], name, body)
}

export interface MailHarness {
  dovecot: Dovecot
  smtp: SmtpRecorder
  workspace: Workspace
  root: string
  outside: string
  session: ToolSession
  settings: EmailSettings
  passwords: Map<string, string>
  env: EmailEnvironment
  call<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>
  attempt(name: string, args?: Record<string, unknown>): Promise<ToolResult>
  close(): Promise<void>
}

export function account(imapPort: number, smtpPort: number, extra: Partial<EmailAccount> = {}): EmailAccount {
  return {
    imap: { host: '127.0.0.1', port: imapPort, tls: false },
    smtp: { host: '127.0.0.1', port: smtpPort, tls: false },
    user: 'alice',
    from: 'alice@bureau.test',
    displayName: 'Alice',
    ...extra,
  }
}

/** Dovecot with the fixture messages in alice's INBOX, the SMTP recorder delivering to it, a workspace. */
export async function openMailHarness(options: { seed?: boolean } = {}): Promise<MailHarness> {
  const dirs = tempDirs('bureau-email-')
  const dovecot = await startDovecot({ alice: PASSWORD, marta: 'marta-secret' })
  const smtp = await startSmtpRecorder({
    users: { alice: PASSWORD },
    deliver: (to, raw) => {
      const user = to.split('@')[0] ?? ''
      if (['alice', 'marta'].includes(user)) dovecot.deliver(user, raw)
    },
  })
  if (options.seed !== false)
    for (const name of fixtureEntries('email', (n) => n.endsWith('.eml')))
      dovecot.deliver('alice', readFileSync(fixturePath('email', name)))
  const base = await dirs.make()
  const root = join(base, 'workspace')
  const outside = join(base, 'outside')
  await mkdir(root)
  await mkdir(outside)
  const workspace = createWorkspace({ root })
  const settings = EmailSettingsSchema.parse({ accounts: { work: account(dovecot.port, smtp.port) } })
  const passwords = new Map([['work', PASSWORD]])
  const env: EmailEnvironment = {
    settings: () => settings,
    password: async (name) => passwords.get(name),
    timeouts: { connectMs: 5_000, socketMs: 10_000 },
  }
  const session = createToolSession({ toolsets: [await loadEmailToolset(env)], workspace })
  const attempt = (name: string, args: Record<string, unknown> = {}) => invoke(session, name, args)
  return {
    dovecot,
    smtp,
    workspace,
    root,
    outside,
    session,
    settings,
    passwords,
    env,
    attempt,
    async call<T>(name: string, args: Record<string, unknown> = {}) {
      const result = await attempt(name, args)
      if (!result.ok) throw new Error(`${name} failed: ${result.error}`)
      return result.value as T
    },
    async close() {
      await session.dispose()
      await workspace.close()
      await smtp.close()
      await dovecot.stop()
      await dirs.cleanup()
    },
  }
}
