/** TextDecoder construction for any WHATWG Encoding Standard label. */

/**
 * A TextDecoder for `label` (Bun's typings list only a few labels; the runtime implements the whole WHATWG
 * label table). @throws RangeError for an unknown label.
 */
export function decoderFor(label: string, fatal = false): TextDecoder {
  return new TextDecoder(label as ConstructorParameters<typeof TextDecoder>[0], { fatal });
}
