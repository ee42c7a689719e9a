export { default } from '../chat/ChatPage'
