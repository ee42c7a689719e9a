import type { ImapFlow } from 'imapflow'
import { resolveAccount } from '../accounts'
import type { EmailEnvironment } from '../types'
import { openImap } from './connect'

export interface FolderRule {
  account?: string | undefined
  folder: string
  /** Part of the sender's name or address, case-insensitive. */
  from?: string | undefined
  /** Part of the subject, case-insensitive. */
  subject?: string | undefined
}

export interface NewMail {
  uid: number
  from: string
  subject: string
}

export interface FolderWatch {
  /** `idle` when the server pushes new mail, `poll` when Bureau asks every `pollMs`. */
  readonly mode: 'idle' | 'poll'
  close(): Promise<void>
}

export interface WatchFolderOptions {
  rule: FolderRule
  onMail: (mail: NewMail) => void
  onError: (message: string) => void
  /** How often a server without IDLE is asked (default 60 s). */
  pollMs?: number
  /** Poll even when the server has IDLE (tests). */
  forcePoll?: boolean
  /** How long to wait before connecting again after the connection dropped (default 30 s). */
  retryMs?: number
}

function matches(rule: FolderRule, mail: NewMail): boolean {
  const has = (text: string, part: string | undefined) =>
    !part || text.toLowerCase().includes(part.toLowerCase())
  return has(mail.from, rule.from) && has(mail.subject, rule.subject)
}

/**
 * Reports each message that arrives in a folder after the watch started and matches the rule:
 * IMAP IDLE where the server has it (new mail is pushed), polling otherwise; a dropped connection
 * is reported and opened again.
 */
export async function watchFolder(env: EmailEnvironment, options: WatchFolderOptions): Promise<FolderWatch> {
  const pollMs = options.pollMs ?? 60_000
  let closed = false
  let client: ImapFlow | undefined
  let lastUid = 0
  let retry: NodeJS.Timeout | undefined
  let poll: NodeJS.Timeout | undefined
  let checking: Promise<void> = Promise.resolve()
  let mode: 'idle' | 'poll' = 'poll'

  const check = () => {
    checking = checking
      .then(async () => {
        const open = client
        if (!open || closed) return
        for await (const message of open.fetch(
          `${lastUid + 1}:*`,
          { envelope: true, uid: true },
          { uid: true },
        )) {
          if (message.uid <= lastUid) continue
          lastUid = message.uid
          const envelope = message.envelope
          const sender = envelope?.from?.[0]
          const mail: NewMail = {
            uid: message.uid,
            from: sender ? `${sender.name ? `${sender.name} ` : ''}<${sender.address ?? ''}>` : '',
            subject: envelope?.subject ?? '',
          }
          if (matches(options.rule, mail)) options.onMail(mail)
        }
      })
      .catch((error) => {
        if (!closed) options.onError(`Checking ${options.rule.folder} failed: ${(error as Error).message}`)
      })
    return checking
  }

  async function connect(): Promise<void> {
    const account = await resolveAccount(env, options.rule.account, 'imap')
    const next = await openImap(account, env)
    const mailbox = await next.mailboxOpen(options.rule.folder, { readOnly: true })
    if (lastUid === 0) lastUid = Math.max(0, Number(mailbox.uidNext ?? 1) - 1)
    client = next
    next.on('exists', () => void check())
    next.on('close', () => {
      if (closed || client !== next) return
      client = undefined
      options.onError(
        `The connection to ${account.imap.host} for ${options.rule.folder} dropped; trying again.`,
      )
      retry = setTimeout(() => void start(), options.retryMs ?? 30_000)
      retry.unref()
    })
    mode = next.capabilities.has('IDLE') && !options.forcePoll ? 'idle' : 'poll'
    // Messages that came while the connection was down.
    await check()
    if (mode === 'idle') {
      void (async () => {
        while (!closed && client === next && next.usable) {
          await next.idle().catch(() => undefined)
          await check()
        }
      })()
    } else {
      const tick = () => {
        if (closed || client !== next) return
        void check().finally(() => {
          poll = setTimeout(tick, pollMs)
          poll.unref()
        })
      }
      poll = setTimeout(tick, pollMs)
      poll.unref()
    }
  }

  async function start(): Promise<void> {
    try {
      await connect()
    } catch (error) {
      if (closed) return
      options.onError(`${options.rule.folder} cannot be watched: ${(error as Error).message}`)
      retry = setTimeout(() => void start(), options.retryMs ?? 30_000)
      retry.unref()
    }
  }

  // The first connection's failure reaches the caller (a wrong folder or password is said at once).
  await connect()
  return {
    get mode() {
      return mode
    },
    async close() {
      closed = true
      clearTimeout(retry)
      clearTimeout(poll)
      const open = client
      client = undefined
      await checking
      await open?.logout().catch(() => open.close())
    },
  }
}
