import { useEffect, useRef } from 'react'
import { useAppInfo } from './appApi'
import { shortcutList } from './shortcuts'

function ShortcutTable() {
  return (
    <table className="shortcuts" aria-labelledby="shortcuts-title">
      <caption id="shortcuts-title">Keyboard shortcuts</caption>
      <thead>
        <tr>
          <th scope="col">Keys</th>
          <th scope="col">Does</th>
        </tr>
      </thead>
      <tbody>
        {shortcutList().map((s) => (
          <tr key={s.action}>
            <td>
              {s.keys.map((key, i) => (
                <span key={key}>
                  {i > 0 && '+'}
                  <kbd>{key}</kbd>
                </span>
              ))}
            </td>
            <td>{s.action}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function AboutPanel({ onClose }: { onClose: () => void }) {
  const info = useAppInfo()
  const dialog = useRef<HTMLDialogElement>(null)

  useEffect(() => {
    dialog.current?.showModal()
  }, [])

  return (
    <dialog ref={dialog} className="about" aria-labelledby="about-title" onClose={onClose}>
      <h2 id="about-title">About Bureau</h2>
      {info.isLoading && <p>Loading…</p>}
      {info.error && <p role="alert">Could not reach Bureau: {info.error.message}</p>}
      {info.data && (
        <dl>
          <dt>Name</dt>
          <dd data-testid="about-name">{info.data.name}</dd>
          <dt>Version</dt>
          <dd data-testid="about-version">{info.data.version}</dd>
          <dt>Host</dt>
          <dd data-testid="about-host">
            {info.data.host === 'electron' ? 'Desktop app' : 'Headless host (web)'}
          </dd>
        </dl>
      )}
      <p className="muted">A desktop office assistant with deterministic typed tool calling.</p>
      <ShortcutTable />
      <form method="dialog">
        <button type="submit" className="button">
          Close
        </button>
      </form>
    </dialog>
  )
}
