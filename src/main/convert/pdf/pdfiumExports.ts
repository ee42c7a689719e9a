/** A pointer into the engine's memory (wasm32: a byte offset). */
export type Ptr = number

/**
 * The PDFium functions the converter calls, straight from the WebAssembly instance (the Emscripten glue's
 * wrappers check every call's arguments, which costs more than the call on per-character loops).
 * Signatures follow PDFium's public headers; booleans come back as 0 or 1.
 */
export interface PdfiumExports {
  memory: WebAssembly.Memory
  malloc(size: number): Ptr
  free(ptr: Ptr): void
  PDFiumExt_Init(): void

  FPDF_LoadMemDocument(data: Ptr, size: number, password: Ptr): Ptr
  FPDF_GetLastError(): number
  FPDF_CloseDocument(document: Ptr): void
  FPDF_GetPageCount(document: Ptr): number
  FPDF_GetMetaText(document: Ptr, tag: Ptr, buffer: Ptr, length: number): number
  FPDF_LoadPage(document: Ptr, index: number): Ptr
  FPDF_ClosePage(page: Ptr): void
  /** FS_RECTF: left, top, right, bottom (float32). */
  FPDF_GetPageBoundingBox(page: Ptr, rect: Ptr): number

  FPDFText_LoadPage(page: Ptr): Ptr
  FPDFText_ClosePage(textPage: Ptr): void
  FPDFText_CountChars(textPage: Ptr): number
  FPDFText_GetUnicode(textPage: Ptr, index: number): number
  /** UTF-16LE of `count` characters from `start` and a NUL; returns the units written, NUL included. */
  FPDFText_GetText(textPage: Ptr, start: number, count: number, buffer: Ptr): number
  FPDFText_IsGenerated(textPage: Ptr, index: number): number
  FPDFText_GetTextObject(textPage: Ptr, index: number): Ptr
  /** Two float64: x, y. */
  FPDFText_GetCharOrigin(textPage: Ptr, index: number, x: Ptr, y: Ptr): number
  /** FS_RECTF (float32): left, top, right, bottom; left is the origin, right the end of the advance. */
  FPDFText_GetLooseCharBox(textPage: Ptr, index: number, rect: Ptr): number
  FPDFText_GetFontSize(textPage: Ptr, index: number): number
  /** FS_MATRIX (float32): a, b, c, d, e, f; the text matrix with the page's transformation. */
  FPDFText_GetMatrix(textPage: Ptr, index: number, matrix: Ptr): number
  /** The base font name (UTF-8, with its NUL) and the descriptor's flags (int32). */
  FPDFText_GetFontInfo(textPage: Ptr, index: number, buffer: Ptr, length: number, flags: Ptr): number

  FPDFPage_CountObjects(page: Ptr): number
  FPDFPage_GetObject(page: Ptr, index: number): Ptr
  FPDFPageObj_GetType(object: Ptr): number
  FPDFPageObj_GetMatrix(object: Ptr, matrix: Ptr): number
  FPDFFormObj_CountObjects(form: Ptr): number
  FPDFFormObj_GetObject(form: Ptr, index: number): Ptr
  FPDFPath_CountSegments(path: Ptr): number
  FPDFPath_GetPathSegment(path: Ptr, index: number): Ptr
  /** Two int32: the fill mode (0: none) and whether the path is stroked. */
  FPDFPath_GetDrawMode(path: Ptr, fillMode: Ptr, stroke: Ptr): number
  /** Two float32: x, y. */
  FPDFPathSegment_GetPoint(segment: Ptr, x: Ptr, y: Ptr): number
  FPDFPathSegment_GetType(segment: Ptr): number
  FPDFPathSegment_GetClose(segment: Ptr): number
  /** Two uint32: width, height in pixels. */
  FPDFImageObj_GetImagePixelSize(image: Ptr, width: Ptr, height: Ptr): number
  FPDFImageObj_GetBitmap(image: Ptr): Ptr
  FPDFBitmap_GetWidth(bitmap: Ptr): number
  FPDFBitmap_GetHeight(bitmap: Ptr): number
  FPDFBitmap_GetStride(bitmap: Ptr): number
  FPDFBitmap_GetFormat(bitmap: Ptr): number
  FPDFBitmap_GetBuffer(bitmap: Ptr): Ptr
  FPDFBitmap_Destroy(bitmap: Ptr): void
  /** Page size in points (1/72 inch), with the page's rotation applied. */
  FPDF_GetPageWidthF(page: Ptr): number
  FPDF_GetPageHeightF(page: Ptr): number
  /** A BGRx (alpha 0) or BGRA bitmap of width × height, allocated in the engine; 0 when it does not fit. */
  FPDFBitmap_Create(width: number, height: number, alpha: number): Ptr
  /** Colour as 0xAARRGGBB. */
  FPDFBitmap_FillRect(
    bitmap: Ptr,
    left: number,
    top: number,
    width: number,
    height: number,
    color: number,
  ): number
  FPDF_RenderPageBitmap(
    bitmap: Ptr,
    page: Ptr,
    startX: number,
    startY: number,
    sizeX: number,
    sizeY: number,
    rotate: number,
    flags: number,
  ): void
}

/** FPDF_GetLastError codes (fpdfview.h). */
export const PdfiumError = { password: 4, security: 5 } as const

/** FPDFPageObj_GetType values (fpdf_edit.h). */
export const ObjectType = { text: 1, path: 2, image: 3, form: 5 } as const

/** FPDFPathSegment_GetType values (fpdf_edit.h). */
export const SegmentType = { lineTo: 0, bezierTo: 1, moveTo: 2 } as const

/** FPDFBitmap_GetFormat values (fpdfview.h). */
export const BitmapFormat = { gray: 1, bgr: 2, bgrx: 3, bgra: 4 } as const

/** FPDF_RenderPageBitmap flags (fpdfview.h): draw annotations (form fields, stamps) as a viewer shows them. */
export const RenderFlag = { annotations: 0x01 } as const

/** Font descriptor flags (PDF 32000-1, 9.8.2). */
export const FontFlag = { italic: 1 << 6, forceBold: 1 << 18 } as const
