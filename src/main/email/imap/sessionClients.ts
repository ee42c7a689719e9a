import type { ImapFlow } from 'imapflow'
import { sessionState, type ToolContext } from '../../tools'
import { resolveAccount } from '../accounts'
import { mailError } from '../mailErrors'
import type { EmailEnvironment, ResolvedAccount } from '../types'
import { openImap } from './connect'

type Clients = Map<string, Promise<ImapFlow>>

async function closeAll(clients: Clients): Promise<void> {
  await Promise.all(
    [...clients.values()].map(async (pending) => {
      const client = await pending.catch(() => undefined)
      await client?.logout().catch(() => client.close())
    }),
  )
  clients.clear()
}

/** One IMAP connection per account per tool session, reopened when the server dropped it. */
const imapClients = sessionState<Clients>('email.imap', () => new Map(), closeAll)

export interface MailboxScope {
  client: ImapFlow
  account: ResolvedAccount
}

async function clientFor(
  ctx: ToolContext,
  account: ResolvedAccount,
  env: EmailEnvironment,
): Promise<ImapFlow> {
  const clients = imapClients.get(ctx)
  const pending = clients.get(account.name)
  const existing = pending ? await pending.catch(() => undefined) : undefined
  if (existing?.usable) return existing
  const opening = openImap(account, env)
  clients.set(account.name, opening)
  opening.catch(() => clients.delete(account.name))
  return opening
}

/**
 * Runs `run` with the folder selected (and locked) on the account's connection. A connection that
 * fails mid-command is dropped, so the next call connects again.
 */
export async function withFolder<T>(
  ctx: ToolContext,
  env: EmailEnvironment,
  request: { account?: string | undefined; folder?: string | undefined },
  run: (scope: MailboxScope) => Promise<T>,
): Promise<T> {
  const account = await resolveAccount(env, request.account, 'imap')
  const client = await clientFor(ctx, account, env)
  try {
    if (request.folder === undefined) return await run({ client, account })
    const lock = await client.getMailboxLock(request.folder)
    try {
      return await run({ client, account })
    } finally {
      lock.release()
    }
  } catch (error) {
    if (!client.usable) imapClients.get(ctx).delete(account.name)
    throw mailError(error, 'IMAP', account.imap, account)
  }
}
