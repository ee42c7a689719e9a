import './chat.css'
import { useQueryClient } from '@tanstack/react-query'
import { type KeyboardEvent, useCallback, useRef } from 'react'
import { ProblemBanner } from '../components/ProblemBanner'
import { FirstRunGuide } from '../firstRun/FirstRunGuide'
import { bureau } from '../ipc/bureauClient'
import { useSettings } from '../settings/useSettings'
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

/** The Chat page: conversations on the left, the conversation and the composer on the right. */
export default function ChatPage() {
  useChatEvents()
  const queryClient = useQueryClient()
  const settings = useSettings()
  const { conversationId, messages, run, sending, problem } = useChat()
  const addFiles = useComposer((s) => s.addFiles)
  const setText = useComposer((s) => s.setText)
  const page = useRef<HTMLElement>(null)
  const running = run !== undefined && run.conversationId === conversationId

  const focusComposer = () => page.current?.querySelector<HTMLTextAreaElement>('.composer-input')?.focus()

  const openConversation = useCallback(async (id: string) => {
    try {
      const conversation = await bureau.invoke('conversations.get', { id })
      useChat.getState().showConversation(id, conversation.messages)
    } catch (error) {
      useChat.getState().setProblem(problemFrom(error))
    }
  }, [])

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
        onOpen={(id) => void openConversation(id)}
        onNew={() => {
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
          {settings.data && <FirstRunGuide settings={settings.data} />}
          {messages.length === 0 ? (
            <EmptyState
              onPick={(text) => {
                setText(text)
                focusComposer()
              }}
            />
          ) : (
            <MessageList messages={messages} busy={running} />
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
