import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react'
import type { Memory, MemoryPreferences } from '../../../shared/memory'
import { downloadText } from '../chat/download'
import { queryKeys } from '../ipc/queryKeys'
import './memory.css'
import { useMemoryActions, useMemoryList } from './memoryApi'

type ScopeChoice = 'everywhere' | 'workspace'
const KEY = queryKeys.memory.all()

function scopeText(memory: Memory, workspace: string): string {
  if (memory.scope.kind === 'everywhere') return 'Everywhere'
  if (memory.scope.folder === workspace) return 'This workspace'
  return `Workspace ${memory.scope.folder.split(/[\\/]/).filter(Boolean).pop() ?? memory.scope.folder}`
}

function sourceText(memory: Memory): string {
  const date = new Date(memory.updatedAt).toLocaleDateString()
  switch (memory.source.kind) {
    case 'conversation':
      return `Said in ${memory.source.title ? `“${memory.source.title}”` : 'a conversation'} · ${date}`
    case 'settings':
      return `Written in Settings · ${date}`
    case 'cli':
      return `Added with bureau memory · ${date}`
    default:
      return `Imported · ${date}`
  }
}

function ScopeSelect({
  value,
  onChange,
  label,
}: {
  value: ScopeChoice
  onChange(v: ScopeChoice): void
  label: string
}) {
  return (
    <select
      className="input"
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value as ScopeChoice)}
    >
      <option value="everywhere">Everywhere</option>
      <option value="workspace">This workspace</option>
    </select>
  )
}

function MemoryRow({
  memory,
  workspace,
  onDeleted,
}: {
  memory: Memory
  workspace: string
  onDeleted(m: Memory): void
}) {
  const memories = useMemoryActions()
  const client = useQueryClient()
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(memory.text)
  const [scope, setScope] = useState<ScopeChoice>(
    memory.scope.kind === 'everywhere' ? 'everywhere' : 'workspace',
  )
  const save = useMutation({
    mutationFn: () => memories.update({ id: memory.id, text, scope }),
    onSuccess: () => {
      setEditing(false)
      void client.invalidateQueries({ queryKey: KEY })
    },
  })
  const remove = useMutation({
    mutationFn: () => memories.remove(memory.id),
    onSuccess: (deleted) => {
      onDeleted(deleted)
      void client.invalidateQueries({ queryKey: KEY })
    },
  })
  const error = save.error ?? remove.error
  return (
    <li className="memory-item" aria-label={`Memory: ${memory.text}`}>
      {editing ? (
        <form
          className="memory-edit"
          onSubmit={(e) => {
            e.preventDefault()
            save.mutate()
          }}
        >
          <textarea
            className="input"
            aria-label="Memory text"
            rows={2}
            maxLength={500}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <div className="memory-actions">
            <ScopeSelect value={scope} onChange={setScope} label="Where it applies" />
            <button type="submit" className="button small primary" disabled={save.isPending || !text.trim()}>
              Save
            </button>
            <button
              type="button"
              className="button small secondary"
              onClick={() => {
                setEditing(false)
                setText(memory.text)
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <p className="memory-text">{memory.text}</p>
          <p className="memory-meta muted">
            {scopeText(memory, workspace)} · {sourceText(memory)}
          </p>
          <div className="memory-actions">
            <button type="button" className="button small secondary" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button
              type="button"
              className="button small secondary"
              disabled={remove.isPending}
              onClick={() => remove.mutate()}
            >
              Delete
            </button>
          </div>
        </>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error.message}
        </p>
      )}
    </li>
  )
}

interface Undo {
  message: string
  run(): Promise<unknown>
  until: number
}

/** Settings → Memory: what Bureau keeps across conversations, to read, edit, pause, forget, export and import. */
export function MemorySection() {
  const memories = useMemoryActions()
  const client = useQueryClient()
  const [query, setQuery] = useState('')
  const [text, setText] = useState('')
  const [scope, setScope] = useState<ScopeChoice>('everywhere')
  const [undo, setUndo] = useState<Undo>()
  const [status, setStatus] = useState('')
  const listing = useMemoryList(query)
  const refresh = () => client.invalidateQueries({ queryKey: KEY })
  useEffect(() => {
    if (!undo) return
    const timer = setTimeout(() => setUndo(undefined), Math.max(0, undo.until - Date.now()))
    return () => clearTimeout(timer)
  }, [undo])
  const add = useMutation({
    mutationFn: () => memories.add({ text, scope }),
    onSuccess: () => {
      setText('')
      setStatus('Remembered.')
      void refresh()
    },
  })
  // What the user asked for until the refetched list lands: a controlled checkbox snaps back meanwhile.
  const [wanted, setWanted] = useState<Partial<MemoryPreferences>>({})
  const preferences = useMutation({
    mutationFn: (patch: Partial<MemoryPreferences>) => memories.setPreferences(patch),
    onSettled: async () => {
      await refresh()
      setWanted({})
    },
  })
  const setPreference = (patch: Partial<MemoryPreferences>) => {
    setWanted((current) => ({ ...current, ...patch }))
    preferences.mutate(patch)
  }
  const forgetAll = useMutation({
    mutationFn: () => memories.forgetAll(),
    onSuccess: (result) => {
      setUndo({
        message: `Forgot ${result.count} ${result.count === 1 ? 'memory' : 'memories'}.`,
        run: () => memories.undoForget(result.undoToken),
        until: Date.parse(result.undoUntil),
      })
      void refresh()
    },
  })
  const undoIt = useMutation({
    mutationFn: async () => undo?.run(),
    onSuccess: () => {
      setUndo(undefined)
      setStatus('Put back.')
      void refresh()
    },
  })
  const importFile = useMutation({
    mutationFn: async (file: File) => memories.importJson(await file.text()),
    onSuccess: (report) => {
      setStatus(
        `Imported ${report.added}; ${report.skipped} already there, ${report.refused} refused (secrets).`,
      )
      void refresh()
    },
  })
  const exportAll = async () => {
    const { json } = await memories.exportJson()
    downloadText('bureau-memories.json', 'application/json', json)
  }
  const onAdd = (event: FormEvent) => {
    event.preventDefault()
    if (text.trim()) add.mutate()
  }
  const onImport = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    if (file) importFile.mutate(file)
    event.target.value = ''
  }
  const data = listing.data
  const prefs = data?.preferences
  const error = add.error ?? preferences.error ?? forgetAll.error ?? undoIt.error ?? importFile.error
  return (
    <section className="settings-card" aria-labelledby="memory-title" id="memory">
      <header>
        <h2 id="memory-title">Memory</h2>
        <p className="muted">
          Facts Bureau keeps across conversations. The ones that matter for a request are added to its prompt
          (at most {prefs?.budgetTokens ?? 300} tokens). Bureau asks before it keeps what the model proposes;
          passwords, keys and tokens are never stored.
        </p>
      </header>
      <div className="memory-toggles">
        <label className="switch">
          <input
            type="checkbox"
            checked={wanted.paused ?? prefs?.paused ?? false}
            disabled={!prefs || preferences.isPending}
            onChange={(e) => setPreference({ paused: e.target.checked })}
          />
          <span>Pause memory</span>
        </label>
        <label className="switch">
          <input
            type="checkbox"
            checked={wanted.saveWithoutAsking ?? prefs?.saveWithoutAsking ?? false}
            disabled={!prefs || preferences.isPending}
            onChange={(e) => setPreference({ saveWithoutAsking: e.target.checked })}
          />
          <span>Save without asking</span>
        </label>
      </div>
      {(wanted.paused ?? prefs?.paused) && (
        <p className="banner banner-warning" role="note">
          Memory is paused: nothing is added to prompts and nothing new is stored.
        </p>
      )}
      <form className="memory-add" onSubmit={onAdd}>
        <input
          className="input"
          aria-label="New memory"
          placeholder="e.g. Invoices go to /finance/invoices"
          maxLength={500}
          value={text}
          onChange={(e) => {
            setText(e.target.value)
            setStatus('')
            if (add.error) add.reset()
          }}
        />
        <ScopeSelect value={scope} onChange={setScope} label="Where the new memory applies" />
        <button type="submit" className="button primary" disabled={add.isPending || !text.trim()}>
          Remember
        </button>
      </form>
      <input
        className="input"
        type="search"
        aria-label="Search memories"
        placeholder="Search memories"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      {error && (
        <p className="error-text" role="alert">
          {error.message}
        </p>
      )}
      {undo && (
        <div className="memory-undo" role="status">
          <span>{undo.message}</span>
          <button type="button" className="button small secondary" onClick={() => undoIt.mutate()}>
            Undo
          </button>
        </div>
      )}
      {!undo && !error && status && (
        <p className="ok-text" role="status">
          {status}
        </p>
      )}
      {listing.isError && (
        <p className="error-text" role="alert">
          Memories could not be read: {listing.error.message}
        </p>
      )}
      {data && data.memories.length === 0 && (
        <p className="muted">{query ? 'No memory matches.' : 'No memories yet.'}</p>
      )}
      {data && data.memories.length > 0 && (
        <ul className="memory-list" aria-label="Memories">
          {data.memories.map((memory) => (
            <MemoryRow
              key={memory.id}
              memory={memory}
              workspace={data.workspace}
              onDeleted={(deleted) =>
                setUndo({
                  message: 'Memory deleted.',
                  run: () => memories.restore({ memories: [deleted] }),
                  until: Date.now() + 60_000,
                })
              }
            />
          ))}
        </ul>
      )}
      <div className="memory-actions">
        <button type="button" className="button secondary" onClick={() => void exportAll()}>
          Export JSON
        </button>
        <label className="button secondary">
          Import JSON
          <input type="file" accept="application/json,.json" hidden onChange={onImport} />
        </label>
        <button
          type="button"
          className="button secondary"
          disabled={!data || data.memories.length === 0 || forgetAll.isPending}
          onClick={() => forgetAll.mutate()}
        >
          Forget everything
        </button>
      </div>
    </section>
  )
}
