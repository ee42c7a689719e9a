import { extensionOf, fileKind, kindLabels } from './fileKind'

/** A small coloured tile with the file's extension: the type icon of chips and file lists. */
export function FileBadge({ name }: { name: string }) {
  const kind = fileKind(name)
  const ext = extensionOf(name).slice(0, 4) || 'file'
  return (
    <span className={`file-badge file-badge-${kind}`} role="img" aria-label={kindLabels[kind]}>
      {ext}
    </span>
  )
}
