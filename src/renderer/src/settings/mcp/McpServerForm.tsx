import { type FormEvent, useRef, useState } from 'react'
import { Field } from '../../components/Field'
import { draftOf, formErrors, type ServerForm } from './mcpDraft'
import { SecretRows } from './SecretRows'

/** Add or edit one server: stdio (command, arguments, environment) or HTTP (URL, headers). */
export function McpServerForm({
  initial,
  isNew,
  taken,
  onSave,
  onCancel,
}: {
  initial: ServerForm
  isNew: boolean
  taken: readonly string[]
  onSave(draft: ReturnType<typeof draftOf>): Promise<unknown>
  onCancel(): void
}) {
  const [form, setForm] = useState(initial)
  const [error, setError] = useState<string>()
  const [saving, setSaving] = useState(false)
  // Errors show beside their field once it was changed, and all of them after a Save.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const [checkAll, setCheckAll] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const errors = formErrors(form, taken, isNew)
  const shown = (field: keyof typeof errors) => (checkAll || touched.has(field) ? errors[field] : undefined)
  const set = (patch: Partial<ServerForm>) => {
    setForm({ ...form, ...patch })
    const fields = Object.keys(patch).map((key) => (key === 'env' || key === 'headers' ? 'rows' : key))
    setTouched((t) => new Set([...t, ...fields]))
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(undefined)
    if (Object.keys(errors).length > 0) {
      setCheckAll(true)
      // The first wrong field in screen order takes the focus (after the errors render).
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      )
      return
    }
    setSaving(true)
    try {
      await onSave(draftOf(form))
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setSaving(false)
    }
  }
  return (
    <form
      ref={formRef}
      className="mcp-form"
      onSubmit={submit}
      noValidate
      aria-label={isNew ? 'New MCP server' : `MCP server ${form.name}`}
    >
      <div className="field-grid">
        <Field label="Name" hint="Lowercase, e.g. github: the toolset the agent sees." error={shown('name')}>
          <input
            className="input mono"
            value={form.name}
            disabled={!isNew}
            onChange={(e) => set({ name: e.target.value.trim().toLowerCase() })}
          />
        </Field>
        <Field label="Connection">
          <select
            className="input"
            value={form.kind}
            onChange={(e) => set({ kind: e.target.value as ServerForm['kind'] })}
          >
            <option value="stdio">A local program (stdio)</option>
            <option value="http">A server at a URL (HTTP)</option>
          </select>
        </Field>
      </div>
      {form.kind === 'stdio' ? (
        <>
          <div className="field-grid">
            <Field
              label="Command"
              hint="Found on PATH, or an absolute path (npx, node, uvx…)."
              error={shown('command')}
            >
              <input
                className="input mono"
                value={form.command}
                onChange={(e) => set({ command: e.target.value })}
              />
            </Field>
            <Field label="Working folder" hint="Optional.">
              <input className="input mono" value={form.cwd} onChange={(e) => set({ cwd: e.target.value })} />
            </Field>
          </div>
          <Field label="Arguments" hint="One per line.">
            <textarea
              className="input mono"
              rows={3}
              value={form.args}
              onChange={(e) => set({ args: e.target.value })}
            />
          </Field>
          <SecretRows
            label="Environment variables"
            noun="Variable"
            rows={form.env}
            error={shown('rows')}
            onChange={(env) => set({ env })}
          />
        </>
      ) : (
        <>
          <div className="field-grid">
            <Field label="URL" error={shown('url')}>
              <input
                className="input mono"
                type="url"
                value={form.url}
                onChange={(e) => set({ url: e.target.value })}
              />
            </Field>
            <Field label="Transport" hint="Automatic tries streamable HTTP, then SSE. No OAuth.">
              <select
                className="input"
                value={form.transport}
                onChange={(e) => set({ transport: e.target.value as ServerForm['transport'] })}
              >
                <option value="auto">Automatic</option>
                <option value="streamable-http">Streamable HTTP</option>
                <option value="sse">SSE (older servers)</option>
              </select>
            </Field>
          </div>
          <SecretRows
            label="Headers"
            noun="Header"
            rows={form.headers}
            error={shown('rows')}
            onChange={(headers) => set({ headers })}
          />
        </>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="save-actions">
        <button type="submit" className="button primary" disabled={saving}>
          {saving ? 'Connecting…' : 'Save server'}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
