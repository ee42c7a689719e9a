import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CheckOf } from './checkSchema'
import { type CheckContext, fail } from './context'
import { maildirFolders } from './officeText'
import { factName, hasFact } from './otherChecks'

interface Parsed {
  to: string[]
  subject: string
  inReplyTo: string
  references: string[]
  text: string
}

async function folderMessages(maildir: string, folder: string): Promise<Parsed[]> {
  const folders = await maildirFolders(maildir)
  // Folder names are matched without regard to case (a person's folder may be "Alice" or "alice").
  const dir =
    folder.toUpperCase() === 'INBOX'
      ? maildir
      : (folders.get(folder) ??
        [...folders].find(([name]) => name.toLowerCase() === folder.toLowerCase())?.[1] ??
        join(maildir, `.${folder}`))
  const { simpleParser } = await import('mailparser')
  const out: Parsed[] = []
  for (const sub of ['new', 'cur']) {
    const names = await readdir(join(dir, sub)).catch(() => [] as string[])
    for (const name of names) {
      const mail = await simpleParser(await readFile(join(dir, sub, name)))
      const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value)
      const references = mail.references ?? []
      out.push({
        to: to.map((a) => (a.address ?? '').toLowerCase()),
        subject: mail.subject ?? '',
        inReplyTo: mail.inReplyTo ?? '',
        references: Array.isArray(references) ? references : [references],
        text: mail.text ?? '',
      })
    }
  }
  return out
}

/** What a message lacks for the check (empty: it matches). */
function misses(check: CheckOf<'mail'>, mail: Parsed): string[] {
  const out: string[] = []
  for (const address of check.to)
    if (!mail.to.includes(address.toLowerCase())) out.push(`is not addressed to ${address}`)
  if (check.subject && !hasFact(mail.subject, check.subject))
    out.push(`has the subject ${JSON.stringify(mail.subject)}, not ${factName(check.subject)}`)
  if (check.inReplyTo && (mail.inReplyTo !== check.inReplyTo || !mail.references.includes(check.inReplyTo)))
    out.push(`does not answer ${check.inReplyTo} (In-Reply-To ${mail.inReplyTo || 'missing'})`)
  for (const fact of check.includes)
    if (!hasFact(mail.text, fact)) out.push(`does not mention ${factName(fact)}`)
  return out
}

export async function checkMail(check: CheckOf<'mail'>, ctx: CheckContext): Promise<string> {
  if (!ctx.maildir) fail('the task has no mailbox (a mail check needs "mailbox" in the task)')
  const messages = await folderMessages(ctx.maildir, check.folder)
  if (messages.length === 0) fail(`there is no message in ${check.folder}`)
  const verdicts = messages.map((mail) => misses(check, mail)).sort((a, b) => a.length - b.length)
  const best = verdicts[0]!
  if (best.length > 0) fail(`no message in ${check.folder} matches: the closest ${best.join(', ')}`)
  return `a message in ${check.folder} as expected`
}
