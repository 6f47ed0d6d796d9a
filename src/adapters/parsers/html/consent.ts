/**
 * Consent and cookie-wall removal, run on the DOM before article extraction: a banner's text must not become
 * the "article" (Readability happily picks a long vendor list), and a page that is nothing but a consent wall
 * must come out empty so that the caller can warn and store a snippet instead.
 */

/** DOM shape used here (linkedom elements). */
export interface ConsentElement {
  localName: string;
  isConnected: boolean;
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(sel: string): unknown;
  remove(): void;
}

/** Document shape used here. */
export interface ConsentDocument {
  querySelectorAll(sel: string): ArrayLike<ConsentElement>;
}

/**
 * Markers of consent-management platforms (CMPs) and cookie banners, matched case-insensitively as substrings of
 * an element's id, class and aria-label. Generic words first, then vendors whose markup names them: OneTrust
 * (`onetrust-banner-sdk`), Didomi, Quantcast Choice (`qc-cmp2-ui`), Cookiebot/Cybot (`CybotCookiebotDialog`),
 * Usercentrics, TrustArc, Sourcepoint (`sp_message_container`), iubenda, CookieYes, Complianz (`cmplz`),
 * tarteaucitron, Borlabs, Evidon, Google Funding Choices (`fc-consent-root`, via "consent").
 */
export const CONSENT_MARKERS: readonly string[] = [
  "cookie",
  "consent",
  "gdpr",
  "onetrust",
  "didomi",
  "qc-cmp",
  "cookiebot",
  "cybot",
  "usercentrics",
  "trustarc",
  "sp_message",
  "iubenda",
  "cookieyes",
  "cmplz",
  "tarteaucitron",
  "borlabs",
  "evidon",
  "quantcast",
  "cc-window",
];

/** Short markers that are only safe as a whole `-`/`_`-separated segment (`cmp-banner`, not `cmpany`). */
export const CONSENT_SEGMENT_MARKERS: readonly string[] = ["cmp", "osano", "klaro", "termly", "ccpa"];

const SUBSTRING_RE = new RegExp(CONSENT_MARKERS.map(escapeRegExp).join("|"), "i");
const SEGMENT_RE = new RegExp(`(?:^|[\\s_-])(?:${CONSENT_SEGMENT_MARKERS.join("|")})(?:$|[\\s_\\d-])`, "i");

/** Text of a consent banner or overlay (English, Russian, German, French), used only for overlays/dialogs. */
const CONSENT_TEXT =
  /\bcookies?\b|\bconsent\b|\bgdpr\b|accept all|reject all|we value your privacy|privacy (?:settings|preferences)|файл\S* cookie|(?<!\p{L})куки(?!\p{L})|соглас\S* на обработку|datenschutz|\bnous utilisons des cookies\b/iu;

/**
 * Phrases of a page that blocks its content rather than holds it: a consent wall ("we use cookies", "accept all",
 * "мы используем файлы cookie", "согласие на обработку"…) or a bot/JavaScript wall ("enable JavaScript", "verify you
 * are human", "включите JavaScript"…), English, Russian, German and French. Unlike {@link CONSENT_TEXT} a bare
 * "cookie" is not enough: a short recipe for cookies is content.
 */
const WALL_TEXT = new RegExp(
  [
    String.raw`\b(?:we|this (?:site|website)) uses? cookies\b`,
    String.raw`\b(?:accept|allow|reject|manage) (?:all )?cookies\b`,
    String.raw`\bcookie (?:policy|settings|preferences|consent)\b`,
    String.raw`\b(?:accept|reject) all\b`,
    String.raw`\bconsent\b`,
    String.raw`\bgdpr\b`,
    String.raw`we value your privacy`,
    String.raw`privacy (?:settings|preferences)`,
    String.raw`(?:enable|turn on) javascript`,
    String.raw`javascript (?:is )?(?:required|disabled)`,
    String.raw`verify (?:that )?you are (?:a )?human`,
    String.raw`are you a robot`,
    String.raw`checking your browser`,
    String.raw`\baccess denied\b`,
    String.raw`(?:мы )?использу\S* (?:файл\S* )?cookie`,
    String.raw`файл\S* cookie`,
    String.raw`(?<!\p{L})куки(?!\p{L})`,
    String.raw`соглас\S* на обработку`,
    String.raw`принять все`,
    String.raw`включите javascript`,
    String.raw`не робот`,
    String.raw`wir verwenden cookies`,
    String.raw`alle akzeptieren`,
    String.raw`nous utilisons des cookies`,
    String.raw`tout accepter`,
  ].join("|"),
  "iu",
);

/**
 * True when `text` (a page's extracted text) reads as a consent, cookie, bot or JavaScript wall, by its words
 * (see WALL_TEXT), never by its length: a short page without such words is content.
 */
export function readsAsWall(text: string): boolean {
  return WALL_TEXT.test(text.replace(/\s+/g, " "));
}

/** Largest text (chars) an overlay may hold and still be taken for a banner rather than content. */
const MAX_OVERLAY_TEXT = 5000;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** True when id/class/aria-label name a consent or cookie container. */
export function isConsentMarked(el: ConsentElement): boolean {
  const names = `${el.getAttribute("id") ?? ""} ${el.getAttribute("class") ?? ""} ${el.getAttribute("aria-label") ?? ""}`;
  return SUBSTRING_RE.test(names) || SEGMENT_RE.test(names);
}

/** True for overlays: fixed/sticky positioned, dialogs, modals. */
function isOverlay(el: ConsentElement): boolean {
  if (el.localName === "dialog") return true;
  const role = el.getAttribute("role") ?? "";
  if (role === "dialog" || role === "alertdialog" || el.getAttribute("aria-modal") === "true") return true;
  return /position\s*:\s*(?:fixed|sticky)/i.test(el.getAttribute("style") ?? "");
}

/** Main-content containers are never removed, even if a class says "cookie" (a recipe site's article). */
function holdsMainContent(el: ConsentElement): boolean {
  if (["html", "body", "main", "article"].includes(el.localName) || el.getAttribute("role") === "main") return true;
  return !!el.querySelector("article, main, [role=main]");
}

/**
 * Removes consent and cookie-wall elements in place: elements marked by {@link CONSENT_MARKERS} (id, class,
 * aria-label), and overlays (fixed/sticky, dialogs, modals) whose text reads as a consent banner. Returns how
 * many elements were removed.
 */
export function removeConsentElements(document: ConsentDocument): number {
  const found = document.querySelectorAll("[id], [class], [aria-label], [style], [role], dialog");
  let removed = 0;
  for (let i = 0; i < found.length; i++) {
    const el = found[i];
    // Descendants of an element removed earlier in this loop are gone already.
    if (!el.isConnected) continue;
    if (!isConsentMarked(el)) {
      if (!isOverlay(el)) continue;
      const text = el.textContent ?? "";
      if (text.length > MAX_OVERLAY_TEXT || !CONSENT_TEXT.test(text)) continue;
    }
    if (holdsMainContent(el)) continue;
    el.remove();
    removed++;
  }
  return removed;
}
