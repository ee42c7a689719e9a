import { useRef } from 'react'
import { AttachmentChip, AttachmentChipList } from './AttachmentChip'
import { Icon } from './Icon'

interface Pending {
  id: string
  file: File
}

interface Rejected {
  name: string
  reason: string
}

/** The paperclip button and the hidden multi-file picker it opens. */
export function AttachFilesButton({
  title,
  className,
  testId,
  onFiles,
}: {
  title: string
  className?: string
  testId: string
  onFiles(files: File[]): void
}) {
  const picker = useRef<HTMLInputElement>(null)
  return (
    <>
      <button
        type="button"
        className={className ? `icon-button ${className}` : 'icon-button'}
        aria-label="Attach files"
        title={title}
        onClick={() => picker.current?.click()}
      >
        <Icon name="paperclip" size={20} />
      </button>
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        data-testid={testId}
        onChange={(event) => {
          onFiles(Array.from(event.currentTarget.files ?? []))
          // The same file can be picked again after it was removed.
          event.currentTarget.value = ''
        }}
      />
    </>
  )
}

/** Files chosen but not sent yet, each with Remove. */
export function PendingFileChips({
  label,
  files,
  onRemove,
}: {
  label: string
  files: readonly Pending[]
  onRemove(id: string): void
}) {
  if (files.length === 0) return null
  return (
    <AttachmentChipList label={label}>
      {files.map(({ id, file }) => (
        <AttachmentChip
          key={id}
          name={file.name}
          size={file.size}
          status="ready"
          onRemove={() => onRemove(id)}
        />
      ))}
    </AttachmentChipList>
  )
}

/** The files the last add left out, each with its reason, until dismissed. */
export function RejectedFiles({ rejected, onDismiss }: { rejected: readonly Rejected[]; onDismiss(): void }) {
  if (rejected.length === 0) return null
  return (
    <div className="rejected-files" role="alert">
      <div>
        <strong>
          {rejected.length === 1 ? '1 file was not attached' : `${rejected.length} files were not attached`}
        </strong>
        <ul>
          {rejected.map((r) => (
            <li key={`${r.name}-${r.reason}`}>
              {r.name}: {r.reason}
            </li>
          ))}
        </ul>
      </div>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
        <Icon name="close" size={14} />
      </button>
    </div>
  )
}
