import './chat.css'
import './chatActions.css'
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef } from 'react'
import { activePath } from '../../../shared/chat/conversationTree'
import { Icon } from '../components/Icon'
import { ProblemBanner } from '../components/ProblemBanner'
import { FirstRunGuide } from '../firstRun/FirstRunGuide'
import { queryKeys } from '../ipc/queryKeys'
import { useSettings } from '../settings/useSettings'
import { ChatHeader } from './ChatHeader'
import { useChatActions } from './chatActions'
import { useChat } from './chatStore'
import { Composer } from './composer/Composer'
import { useComposer } from './composer/composerStore'
import { DropZone } from './composer/DropZone'
import { ConversationList } from './conversations/ConversationList'
import { useConversationActions } from './conversations/conversationsApi'
import { skipRestore, useLastConversation } from './conversations/useLastConversation'
import { EmptyState } from './EmptyState'
import { ExportDocumentMenu } from './ExportDocumentMenu'
import { CONVERSATIONS_TOGGLE_ID, useLayout } from './layoutStore'
import { ApprovalCard, ApprovalNote } from './messages/ApprovalCard'
import { MessageList } from './messages/MessageList'
import { problemFrom } from './messages/problemFrom'
import { QuestionPrompt } from './messages/QuestionPrompt'
import { versionsOf } from './messages/versions'
import { useChatEvents } from './useChatEvents'

/** The Chat page: conversations on the left, the conversation and the composer on the right. */
export default function ChatPage() {
  const conversations = useConversationActions()
  const { answerApproval, answerQuestion, sendMessage, stopRun } = useChatActions()
  useChatEvents()
  const queryClient = useQueryClient()
  const settings = useSettings()
  const {
    conversationId,
    messages,
    leafId,
    run,
    sending,
    problem,
    focusMessageId,
    meta,
    draftModel,
    approvalNote,
  } = useChat()
  const addFiles = useComposer((s) => s.addFiles)
  const setText = useComposer((s) => s.setText)
  const page = useRef<HTMLElement>(null)
  const running = run !== undefined && run.conversationId === conversationId
  const path = useMemo(() => activePath({ messages, leafId }), [messages, leafId])
  const versions = useMemo(() => versionsOf(messages, path), [messages, path])

  const focusComposer = () => page.current?.querySelector<HTMLTextAreaElement>('.composer-input')?.focus()

  const openConversation = useCallback(
    async (id: string, atMessage?: string) => {
      skipRestore()
      try {
        let conversation = await conversations.get(id)
        const shown = activePath({ messages: conversation.messages, leafId: conversation.leafId ?? null })
        // A hit on another branch: show that branch (saved, so the next message continues it).
        if (atMessage && !shown.some((m) => m.id === atMessage))
          conversation = await conversations.select({
            conversationId: id,
            messageId: atMessage,
          })
        useChat.getState().showConversation(id, conversation.messages, conversation.leafId ?? null, atMessage)
        useChat.getState().setMeta(conversation)
      } catch (error) {
        useChat.getState().setProblem(problemFrom(error))
      }
    },
    [conversations],
  )
  const remember = useLastConversation()

  useEffect(() => remember(conversationId), [conversationId, remember])

  const onSend = async (text: string) => {
    const { files, clear } = useComposer.getState()
    const snapshot = { text, files }
    clear()
    const ok = await sendMessage(text.trim(), snapshot.files)
    if (ok) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.conversations.all() })
    } else {
      // Nothing is lost: the text and files go back into the composer.
      useComposer.setState({ text: snapshot.text, files: snapshot.files })
    }
  }

  // Esc stops a streaming answer wherever focus is: see app/useShortcuts.
  return (
    <section ref={page} className="chat-page" aria-labelledby="page-title">
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
          <ChatToolbar />
          <ChatHeader
            conversation={meta && meta.id === conversationId ? meta : undefined}
            draftModel={draftModel}
            onDraftModel={(choice) => useChat.getState().setDraftModel(choice)}
            busy={running || sending}
            onChanged={(conversation) => useChat.getState().setMeta(conversation)}
          />
          {conversationId && path.length > 0 && <ExportDocumentMenu conversationId={conversationId} />}
          {settings.data && <FirstRunGuide settings={settings.data} />}
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
            {running &&
              run?.approvals?.map((pending) => (
                <ApprovalCard
                  key={pending.call.approvalId}
                  pending={pending}
                  onAnswer={(decision, text) => void answerApproval(pending.call.approvalId, decision, text)}
                />
              ))}
            {approvalNote && (
              <ApprovalNote text={approvalNote} onDismiss={() => useChat.getState().dismissApprovalNote()} />
            )}
            <Composer
              running={running}
              sending={sending}
              onSend={(text) => void onSend(text)}
              onStop={() => void stopRun()}
              lastUserText={lastUserText(path)}
            />
          </div>
        </div>
      </DropZone>
    </section>
  )
}

function lastUserText(messages: readonly { role: string; text: string }[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return messages[i]?.text
  return undefined
}

/** Narrow windows only: the button that opens the conversations drawer. */
function ChatToolbar() {
  const open = useLayout((s) => s.drawerOpen)
  const openDrawer = useLayout((s) => s.openDrawer)
  return (
    <div className="chat-toolbar">
      <button
        type="button"
        id={CONVERSATIONS_TOGGLE_ID}
        className="icon-button conversations-toggle"
        aria-label="Show conversations"
        aria-controls="conversations"
        aria-expanded={open}
        title="Conversations"
        onClick={() => openDrawer('new')}
      >
        <Icon name="menu" size={18} />
        <span>Conversations</span>
      </button>
    </div>
  )
}
