import type { McpServerDraft } from '../../../../shared/ipc'
import type { McpServerSettings, PublicSettings } from '../../../../shared/settings'

/** A secret row of the form: stored rows show only that a value is stored, never the value. */
export interface SecretRow {
  key: string
  /** What is typed now; empty on a stored row keeps the stored value. */
  value: string
  stored: boolean
  removed: boolean
}

export interface ServerForm {
  name: string
  kind: 'stdio' | 'http'
  command: string
  /** One argument per line. */
  args: string
  cwd: string
  url: string
  transport: McpServerSettings['transport']
  disabled: boolean
  env: SecretRow[]
  headers: SecretRow[]
}

const storedRows = (settings: PublicSettings, prefix: string): SecretRow[] =>
  Object.keys(settings.secrets)
    .filter((name) => name.startsWith(prefix) && settings.secrets[name]?.set)
    .sort()
    .map((name) => ({ key: name.slice(prefix.length), value: '', stored: true, removed: false }))

export function emptyForm(): ServerForm {
  return {
    name: '',
    kind: 'stdio',
    command: '',
    args: '',
    cwd: '',
    url: '',
    transport: 'auto',
    disabled: false,
    env: [],
    headers: [],
  }
}

/** A server of Settings as the form edits it: secrets by name only. */
export function formOf(settings: PublicSettings, name: string): ServerForm {
  const server = settings.mcp.servers[name]
  return {
    ...emptyForm(),
    name,
    kind: server?.url ? 'http' : 'stdio',
    command: server?.command ?? '',
    args: (server?.args ?? []).join('\n'),
    cwd: server?.cwd ?? '',
    url: server?.url ?? '',
    transport: server?.transport ?? 'auto',
    disabled: server?.disabled ?? false,
    env: storedRows(settings, `mcp.${name}.env.`),
    headers: storedRows(settings, `mcp.${name}.header.`),
  }
}

/** Typed values are sent, removed stored rows become `null`, untouched stored rows are left out. */
function secretsOf(rows: SecretRow[], keep: boolean): Record<string, string | null> {
  const out: Record<string, string | null> = {}
  for (const row of rows) {
    const key = row.key.trim()
    if (!key) continue
    if (!keep || row.removed) {
      if (row.stored) out[key] = null
    } else if (row.value) out[key] = row.value
  }
  return out
}

/** What `mcp.save` takes; the secrets of the other transport are cleared. */
export function draftOf(form: ServerForm): McpServerDraft {
  const stdio = form.kind === 'stdio'
  return {
    name: form.name.trim(),
    ...(stdio && form.command.trim() ? { command: form.command.trim() } : {}),
    args: stdio
      ? form.args
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
      : [],
    ...(stdio && form.cwd.trim() ? { cwd: form.cwd.trim() } : {}),
    ...(!stdio && form.url.trim() ? { url: form.url.trim() } : {}),
    transport: stdio ? 'auto' : form.transport,
    disabled: form.disabled,
    env: secretsOf(form.env, stdio),
    headers: secretsOf(form.headers, !stdio),
  }
}

export type ServerFormErrors = Partial<Record<'name' | 'command' | 'url' | 'rows', string>>

/** Every problem that keeps the form from saving, by field, in words. */
export function formErrors(form: ServerForm, taken: readonly string[], isNew: boolean): ServerFormErrors {
  const errors: ServerFormErrors = {}
  const name = form.name.trim()
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(name))
    errors.name = 'The name takes lowercase letters, digits, - and _ (e.g. github).'
  else if (isNew && taken.includes(name)) errors.name = `A server is already called "${name}".`
  if (form.kind === 'stdio' && !form.command.trim())
    errors.command = 'Give the command that starts the server.'
  if (form.kind === 'http' && !/^https?:\/\/\S+$/.test(form.url.trim()))
    errors.url = 'Give the server URL (http:// or https://).'
  const rows = form.kind === 'stdio' ? form.env : form.headers
  const bad = rows.filter(
    (r) => !r.removed && r.key.trim() && !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(r.key.trim()),
  )
  if (bad.length > 0)
    errors.rows = `${bad.map((r) => `"${r.key}"`).join(', ')} ${bad.length === 1 ? 'is not a valid name' : 'are not valid names'} (letters, digits, - and _).`
  return errors
}

/** The first problem that keeps the form from saving, in words. */
export function formProblem(form: ServerForm, taken: readonly string[], isNew: boolean): string | undefined {
  return Object.values(formErrors(form, taken, isNew))[0]
}
