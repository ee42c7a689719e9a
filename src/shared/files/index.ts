export {
  checkFileSignature,
  detectFileKind,
  type FileKind,
  IMAGE_KINDS,
  isImageKind,
  kindOfName,
  type SignatureCheck,
} from './fileSignature'
