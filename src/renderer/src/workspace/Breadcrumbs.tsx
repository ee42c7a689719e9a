/** `/reports/2024` as clickable parts: Workspace › reports › 2024. */
export function Breadcrumbs({ path, onOpen }: { path: string; onOpen(path: string): void }) {
  const parts = path.split('/').filter(Boolean)
  return (
    <nav aria-label="Folder" className="breadcrumbs">
      <ol>
        <li>
          <button
            type="button"
            onClick={() => onOpen('/')}
            aria-current={parts.length === 0 ? 'location' : undefined}
          >
            Workspace
          </button>
        </li>
        {parts.map((part, i) => {
          const target = `/${parts.slice(0, i + 1).join('/')}`
          return (
            <li key={target}>
              <button
                type="button"
                onClick={() => onOpen(target)}
                aria-current={i === parts.length - 1 ? 'location' : undefined}
              >
                {part}
              </button>
            </li>
          )
        })}
      </ol>
    </nav>
  )
}
