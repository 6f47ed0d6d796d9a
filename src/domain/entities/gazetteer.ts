/**
 * Small gazetteers of the mention extractor (lower case, nominative): countries, regions and large cities, and
 * widely used software. They only decide a kind or let a sentence's first word count as a name; a name missing
 * here is still found by its capital or its cues. General knowledge, not a list of the labelled set's names.
 */

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/u));

/** Countries, continents, regions and large cities, English and Russian (multi-word names joined by spaces). */
export const PLACES: ReadonlySet<string> = new Set([
  ...set(`
afghanistan albania algeria argentina armenia australia austria azerbaijan belarus belgium brazil bulgaria canada
chile china colombia croatia cuba cyprus czechia denmark egypt england estonia ethiopia finland france georgia
germany ghana greece hungary iceland india indonesia iran iraq ireland israel italy japan jordan kazakhstan kenya
korea latvia lebanon lithuania mexico moldova mongolia morocco nepal netherlands nigeria norway pakistan peru
philippines poland portugal romania russia scotland serbia singapore slovakia slovenia spain sweden switzerland
syria taiwan thailand turkey ukraine uzbekistan vietnam wales usa uk america europe asia africa australia
antarctica siberia caucasus alaska california texas florida oregon washington nevada arizona colorado georgia
ohio michigan illinois virginia massachusetts hawaii montana utah kyushu shikoku hokkaido honshu
tokyo kyoto osaka yokohama edo yedo beijing shanghai seoul delhi mumbai bangkok jakarta manila sydney melbourne
moscow london paris berlin rome madrid vienna warsaw prague budapest athens lisbon dublin edinburgh amsterdam
brussels stockholm oslo helsinki copenhagen zurich geneva munich milan venice florence naples barcelona istanbul
cairo dubai toronto montreal vancouver chicago boston seattle denver houston dallas atlanta miami philadelphia
detroit portland austin phoenix himalayas alps andes rockies midwest scandinavia balkans`),
  ..."new york|los angeles|san francisco|new york city|las vegas|hong kong|new zealand|south africa|north america|south america|united states|united kingdom|new delhi|rio de janeiro|buenos aires|saint petersburg|st. petersburg".split(
    "|",
  ),
  ...set(`
россия москва петербург санкт-петербург киев варшава париж лондон берлин рим вена прага кавказ сибирь урал крым
европа азия африка америка германия франция англия италия испания польша украина япония китай индия турция
казахстан алтай новосибирск одесса волга байкал тверь тула казань самара нижний екатеринбург омск томск
иркутск владивосток минск рига таллин вильна ташкент тифлис баку ялта севастополь`),
]);

/** Widely used software, operating systems and platforms. */
export const KNOWN_SOFTWARE: ReadonlySet<string> = set(`
linux windows macos ios android ubuntu debian fedora centos redhat alpine arch firefox chrome chromium safari edge
opera thunderbird docker kubernetes podman git github gitlab python java javascript typescript rust golang ruby
perl php node node.js deno bun react vue angular svelte django flask rails spring postgresql postgres mysql sqlite
redis mongodb elasticsearch kafka nginx apache emacs vim vscode excel word powerpoint photoshop slack zoom skype
whatsapp telegram tensorflow pytorch numpy pandas llvm gcc clang webassembly emscripten v8 gecko webkit blink
ollama qdrant memgraph neo4j bash zsh js`);

/**
 * Software names that are also everyday English words ("Word", "Edge", "Slack", "Windows", "React"): at a sentence's
 * start they say nothing, so only the rest of {@link KNOWN_SOFTWARE} counts as evidence of a name there.
 */
export const SOFTWARE_AS_WORDS: ReadonlySet<string> = set(`word edge opera chrome zoom slack bash spring rails arch
alpine node bun excel react windows blink edge java ruby safari python go gem vue deno`);

/** True when a sentence-initial word is software by name alone (known, and no everyday word). */
export function knownSoftware(lower: string): boolean {
  return KNOWN_SOFTWARE.has(lower) && !SOFTWARE_AS_WORDS.has(lower);
}
