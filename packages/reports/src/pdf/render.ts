import type { TDocumentDefinitions, TFontDictionary, TVirtualFileSystem } from 'pdfmake/interfaces';

/**
 * The slice of pdfmake 0.2's browser build that we use. It runs unchanged in Node. (The installed
 * @types/pdfmake describe 0.3's promise API, so only their document-definition types are used.)
 */
interface PdfmakeDocument {
  getBuffer(callback: (buffer: Uint8Array) => void): void;
  /** 0.2 internals: build synchronously so that layout errors reject instead of escaping as unhandled. */
  _createDoc?(options?: object): unknown;
  _flushDoc?(doc: unknown, callback: (buffer: Uint8Array) => void): void;
}

interface Pdfmake {
  createPdf(
    definition: TDocumentDefinitions,
    tableLayouts?: object,
    fonts?: TFontDictionary,
    vfs?: TVirtualFileSystem,
  ): PdfmakeDocument;
}

interface Runtime {
  pdfMake: Pdfmake;
  vfs: TVirtualFileSystem;
}

let runtime: Promise<Runtime> | undefined;

/** Loads pdfmake and its Roboto fonts on first use (about 3 MB), so importing this package stays cheap. */
function loadRuntime(): Promise<Runtime> {
  // with the extension: pdfmake has no exports map, and Node's own ESM resolver (the production
  // build's server and report worker) finds no file without it
  runtime ??= Promise.all([
    import('pdfmake/build/pdfmake.js'),
    import('pdfmake/build/vfs_fonts.js'),
  ]).then(([pdfmakeModule, vfsModule]) => {
    const m = pdfmakeModule as unknown as Pdfmake & { default?: Pdfmake };
    const v = vfsModule as unknown as TVirtualFileSystem & { default?: TVirtualFileSystem };
    return { pdfMake: m.default ?? m, vfs: v.default ?? v };
  });
  return runtime;
}

/** The bundled Roboto (regular, medium as bold, italics); a fresh object each time, pdfmake rewrites it. */
function robotoFonts(): TFontDictionary {
  return {
    Roboto: {
      normal: 'Roboto-Regular.ttf',
      bold: 'Roboto-Medium.ttf',
      italics: 'Roboto-Italic.ttf',
      bolditalics: 'Roboto-MediumItalic.ttf',
    },
  };
}

/** Renders any pdfmake document definition to PDF bytes, in the browser or in Node. */
export async function renderPdf(
  definition: TDocumentDefinitions,
): Promise<Uint8Array<ArrayBuffer>> {
  const { pdfMake, vfs } = await loadRuntime();
  const document = pdfMake.createPdf(definition, undefined, robotoFonts(), vfs);
  const buffer = await new Promise<Uint8Array>((resolve, reject) => {
    try {
      if (document._createDoc && document._flushDoc) {
        const doc = document._createDoc();
        document._flushDoc(doc, resolve);
      } else {
        document.getBuffer(resolve);
      }
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
  // A plain ArrayBuffer (never shared), so `new Blob([bytes])` type-checks in the browser.
  return new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
}
