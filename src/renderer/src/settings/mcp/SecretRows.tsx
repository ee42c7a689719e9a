import type { SecretRow } from './mcpDraft'

/**
 * Environment variables or headers: a name and a write-only value. A stored row says it is stored and
 * never shows the value; typing replaces it, Remove clears it on save.
 */
export function SecretRows({
  label,
  noun,
  rows,
  error,
  onChange,
}: {
  label: string
  noun: string
  rows: SecretRow[]
  /** A row's name that is not valid, said under the rows; the wrong names are marked. */
  error?: string | undefined
  onChange(rows: SecretRow[]): void
}) {
  const invalid = (key: string) =>
    error !== undefined && key.trim() !== '' && !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key.trim())
  const set = (index: number, patch: Partial<SecretRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)))
  return (
    <fieldset className="mcp-secrets">
      <legend>{label}</legend>
      <p className="field-hint">Values are stored encrypted on this computer and never shown again.</p>
      {rows.map((row, index) =>
        row.removed ? null : (
          // biome-ignore lint/suspicious/noArrayIndexKey: new rows have no stable key until named
          <div className="mcp-secret-row" key={index}>
            <input
              className="input mono"
              aria-label={`${noun} name`}
              placeholder="NAME"
              value={row.key}
              aria-invalid={invalid(row.key) ? true : undefined}
              disabled={row.stored}
              onChange={(e) => set(index, { key: e.target.value })}
            />
            <input
              className="input"
              type="password"
              autoComplete="off"
              aria-label={`Value of ${row.key || `new ${noun.toLowerCase()}`}`}
              placeholder={row.stored ? 'Stored · type to replace' : 'value'}
              value={row.value}
              onChange={(e) => set(index, { value: e.target.value })}
            />
            <button
              type="button"
              className="button small secondary"
              aria-label={`Remove ${row.key || `new ${noun.toLowerCase()}`}`}
              onClick={() =>
                row.stored ? set(index, { removed: true }) : onChange(rows.filter((_, i) => i !== index))
              }
            >
              Remove
            </button>
          </div>
        ),
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <button
        type="button"
        className="button small secondary"
        onClick={() => onChange([...rows, { key: '', value: '', stored: false, removed: false }])}
      >
        Add {noun.toLowerCase()}
      </button>
    </fieldset>
  )
}
