import { useRef } from 'react'
import type { PendingCheck } from '../chat/composer/pendingFilesSlice'
import { AttachmentChip, AttachmentChipList, type AttachmentChipProps } from './AttachmentChip'
import { Icon } from './Icon'

interface Pending {
  id: string
  file: File
  check?: PendingCheck | undefined
}

/** The chip of a file not sent yet, from its pre-send check. */
function chipState(
  check: PendingCheck | undefined,
): Pick<AttachmentChipProps, 'status' | 'error' | 'warnings'> {
  switch (check?.status) {
    case undefined:
    case 'unchecked':
      return { status: 'unchecked' }
    case 'converting':
      return { status: 'converting' }
    case 'converted':
      return { status: 'ready', warnings: check.warnings }
    case 'failed':
      return { status: 'failed', error: check.error }
  }
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

/** Files chosen but not sent yet, each with its check's state and Remove. */
export function PendingFileChips({
  label,
  files,
  onRemove,
  focusAfterLast,
}: {
  label: string
  files: readonly Pending[]
  onRemove(id: string): void
  /** Where the keyboard goes when the last chip is removed (the message box). */
  focusAfterLast?: () => void
}) {
  const list = useRef<HTMLDivElement>(null)
  if (files.length === 0) return null
  // Removing a chip by keyboard keeps focus in the list: on the next chip's Remove, else the box.
  const remove = (id: string, index: number) => {
    onRemove(id)
    requestAnimationFrame(() => {
      const buttons = list.current?.querySelectorAll<HTMLButtonElement>('.chip-remove')
      const next = buttons?.[Math.min(index, buttons.length - 1)]
      if (next) next.focus()
      else focusAfterLast?.()
    })
  }
  return (
    <div ref={list} className="pending-chips">
      <AttachmentChipList label={label}>
        {files.map(({ id, file, check }, index) => (
          <AttachmentChip
            key={id}
            name={file.name}
            size={file.size}
            {...chipState(check)}
            onRemove={() => remove(id, index)}
          />
        ))}
      </AttachmentChipList>
    </div>
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
