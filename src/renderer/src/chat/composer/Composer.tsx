import { type ClipboardEvent, type KeyboardEvent, useLayoutEffect, useRef } from 'react'
import { Icon } from '../../components/Icon'
import { AttachFilesButton, PendingFileChips, RejectedFiles } from '../../components/PendingFiles'
import { namePastedFile } from './attachmentLimits'
import { composerKeyAction } from './composerKeys'
import { useComposer } from './composerStore'

export interface ComposerProps {
  running: boolean
  /** Sending is in flight (bytes being read or chat.send not answered yet). */
  sending: boolean
  onSend(text: string): void
  onStop(): void
  /** The last message the user sent: ↑ in an empty box brings it back to edit. */
  lastUserText?: string | undefined
}

/** The message box: multi-line text, attachments (picker, paste, drop), Send and Stop. */
export function Composer({ running, sending, onSend, onStop, lastUserText }: ComposerProps) {
  const { text, files, rejected, setText, addFiles, removeFile, dismissRejected } = useComposer()
  const box = useRef<HTMLTextAreaElement>(null)
  // A recalled message puts the caret at its end once React has rendered it (not in a frame callback,
  // which can run before the new value is in the box).
  const caretToEnd = useRef(false)
  useLayoutEffect(() => {
    const input = box.current
    if (!caretToEnd.current || !input || input.value !== text) return
    caretToEnd.current = false
    input.setSelectionRange(text.length, text.length)
  }, [text])
  const canSend = !running && !sending && (text.trim() !== '' || files.length > 0)

  const send = () => {
    if (canSend) onSend(text)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const action = composerKeyAction({
      key: event.key,
      shiftKey: event.shiftKey,
      isComposing: event.nativeEvent.isComposing,
      keyCode: event.nativeEvent.keyCode,
      empty: text === '',
      modified: event.ctrlKey || event.metaKey || event.altKey,
    })
    if (action === 'send') {
      event.preventDefault()
      send()
    } else if (action === 'stop' && running) {
      event.preventDefault()
      onStop()
    } else if (action === 'recall' && lastUserText) {
      event.preventDefault()
      caretToEnd.current = true
      setText(lastUserText)
    }
  }

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = Array.from(event.clipboardData.files)
    if (pasted.length === 0) return
    event.preventDefault()
    addFiles(pasted.map((file) => namePastedFile(file)))
  }

  return (
    <div className="composer">
      <RejectedFiles rejected={rejected} onDismiss={dismissRejected} />
      <PendingFileChips
        label="Files to send"
        files={files}
        onRemove={removeFile}
        focusAfterLast={() => box.current?.focus()}
      />
      <div className="composer-row">
        <AttachFilesButton
          title="Attach files"
          className="composer-attach"
          testId="file-input"
          onFiles={addFiles}
        />
        <textarea
          ref={box}
          className="composer-input"
          aria-label="Message"
          placeholder="Ask Bureau, or drop files here…"
          rows={1}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          aria-keyshortcuts="Enter Shift+Enter Escape ArrowUp"
        />
        {running ? (
          <button type="button" className="button composer-stop" title="Stop (Esc)" onClick={onStop}>
            <Icon name="stop" size={16} />
            <span className="narrow-hidden-label">Stop</span>
          </button>
        ) : (
          <button
            type="button"
            className="button composer-send"
            title="Send (Enter)"
            onClick={send}
            disabled={!canSend}
          >
            <Icon name={sending ? 'spinner' : 'send'} size={16} />
            <span className="narrow-hidden-label">Send</span>
          </button>
        )}
      </div>
      <p className="composer-hint">
        <kbd>Enter</kbd> send · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line · <kbd>Esc</kbd> stop ·{' '}
        <kbd>↑</kbd> last message
      </p>
    </div>
  )
}
