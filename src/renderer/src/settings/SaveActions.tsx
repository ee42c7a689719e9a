/** The Save button of a settings form with its "Saved" or error line. */
export function SaveActions({
  dirty,
  saving,
  saved,
  error,
}: {
  dirty: boolean
  saving: boolean
  saved: boolean
  error: string | undefined
}) {
  return (
    <div className="settings-actions">
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
      {saved && !dirty && !error && (
        <span className="saved-text" role="status">
          Saved
        </span>
      )}
      <button type="submit" className="button" disabled={!dirty || saving}>
        {saving ? 'Saving…' : 'Save'}
      </button>
    </div>
  )
}
