import './chat.css'
import './chatActions.css'
import { useQueryClient } from '@tanstack/react-query'
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef } from 'react'
import { activePath } from '../../../shared/chat/conversationTree'
import { ProblemBanner } from '../components/ProblemBanner'
import { bureau } from '../ipc/bureauClient'
import { ChatHeader } from './ChatHeader'
import { Composer } from './Composer'
import { ConversationList } from './ConversationList'
import { answerQuestion, sendMessage, stopRun } from './chatActions'
import { useChat } from './chatStore'
import { useComposer } from './composerStore'
import { DropZone } from './DropZone'
import { EmptyState } from './EmptyState'
import { MessageList } from './MessageList'
import { problemFrom } from './problemFrom'
import { QuestionPrompt } from './QuestionPrompt'
import { useChatEvents } from './useChatEvents'
import { skipRestore, useLastConversation } from './useLastConversation'
import { versionsOf } from './versions'

/** The Chat page: conversations on the left, the conversation and the composer on the right. */
export default function ChatPage() {
  useChatEvents()
  const queryClient = useQueryClient()
  const { conversationId, messages, leafId, run, sending, problem, focusMessageId, meta, draftModel } =
    useChat()
  const addFiles = useComposer((s) => s.addFiles)
  const setText = useComposer((s) => s.setText)
  const page = useRef<HTMLElement>(null)
  const running = run !== undefined && run.conversationId === conversationId
  const path = useMemo(() => activePath({ messages, leafId }), [messages, leafId])
  const versions = useMemo(() => versionsOf(messages, path), [messages, path])

  const focusComposer = () => page.current?.querySelector<HTMLTextAreaElement>('.composer-input')?.focus()

  const openConversation = useCallback(async (id: string, atMessage?: string) => {
    skipRestore()
    try {
      let conversation = await bureau.invoke('conversations.get', { id })
      const shown = activePath({ messages: conversation.messages, leafId: conversation.leafId ?? null })
      // A hit on another branch: show that branch (saved, so the next message continues it).
      if (atMessage && !shown.some((m) => m.id === atMessage))
        conversation = await bureau.invoke('conversations.select', {
          conversationId: id,
          messageId: atMessage,
        })
      useChat.getState().showConversation(id, conversation.messages, conversation.leafId ?? null, atMessage)
      useChat.getState().setMeta(conversation)
    } catch (error) {
      useChat.getState().setProblem(problemFrom(error))
    }
  }, [])
  const remember = useLastConversation()

  useEffect(() => remember(conversationId), [conversationId, remember])

  const onSend = async (text: string) => {
    const { files, clear } = useComposer.getState()
    const snapshot = { text, files }
    clear()
    const ok = await sendMessage(text.trim(), snapshot.files)
    if (ok) {
      void queryClient.invalidateQueries({ queryKey: ['conversations'] })
    } else {
      // Nothing is lost: the text and files go back into the composer.
      useComposer.setState({ text: snapshot.text, files: snapshot.files })
    }
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && running && !event.defaultPrevented) {
      event.preventDefault()
      void stopRun()
    }
  }

  return (
    <section ref={page} className="chat-page" aria-labelledby="page-title" onKeyDown={onKeyDown}>
      <ConversationList
        activeId={conversationId}
        onOpen={(id, atMessage) => void openConversation(id, atMessage)}
        onNew={() => {
          skipRestore()
          useChat.getState().showConversation(undefined, [])
          focusComposer()
        }}
        onDeleted={(id) => {
          if (useChat.getState().conversationId === id) useChat.getState().showConversation(undefined, [])
        }}
      />
      <DropZone onFiles={addFiles}>
        <div className="chat-main">
          <h1 id="page-title" className="visually-hidden">
            Chat
          </h1>
          <ChatHeader
            conversation={meta && meta.id === conversationId ? meta : undefined}
            draftModel={draftModel}
            onDraftModel={(choice) => useChat.getState().setDraftModel(choice)}
            busy={running || sending}
            onChanged={(conversation) => useChat.getState().setMeta(conversation)}
          />
          {path.length === 0 ? (
            <EmptyState
              onPick={(text) => {
                setText(text)
                focusComposer()
              }}
            />
          ) : (
            <MessageList
              messages={path}
              busy={running || sending}
              versions={versions}
              focusId={focusMessageId}
              onFocused={() => useChat.getState().focusDone()}
            />
          )}
          <div className="chat-bottom">
            {problem && (
              <ProblemBanner problem={problem} onDismiss={() => useChat.getState().setProblem(undefined)} />
            )}
            {running && run?.question && <QuestionPrompt question={run.question} onAnswer={answerQuestion} />}
            <Composer
              running={running}
              sending={sending}
              onSend={(text) => void onSend(text)}
              onStop={() => void stopRun()}
            />
          </div>
        </div>
      </DropZone>
    </section>
  )
}
