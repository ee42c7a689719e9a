export { default } from '../voice/VoicePanel'
