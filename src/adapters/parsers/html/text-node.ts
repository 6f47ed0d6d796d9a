/** The DOM node shape the HTML text passes read, apart so that they need not import one another. */

/** Minimal node shape (linkedom and browser DOMs both satisfy it). */
export interface TextNodeLike {
  nodeType: number;
  nodeName: string;
  firstChild: TextNodeLike | null;
  nextSibling: TextNodeLike | null;
  parentNode: TextNodeLike | null;
  textContent: string | null;
  getAttribute?(name: string): string | null;
  hasAttribute?(name: string): boolean;
}
