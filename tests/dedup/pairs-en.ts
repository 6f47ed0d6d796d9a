/**
 * English labelled pairs (see pairs.ts). `a` is quoted from Botchan (text/en_gutenberg_8868_botchan.txt), the
 * Wikipedia "Mozilla" page, the v8.dev Emscripten post, the Firefox Nightly blog or the Docker install page
 * (html/…, as the project's HTML parser reads them), the npj Microgravity or the MDPI Toxins paper (pdf/…, as its
 * PDF parser reads them) unless `source` is null.
 */
import type { LabelledPair } from "./pairs.ts";

const BOTCHAN = "text/en_gutenberg_8868_botchan.txt";
const WIKI = "html/en_wikipedia_mozilla.html";
const V8 = "html/en_blog_v8dev_emscripten_standalone_wasm.html";
const NIGHTLY = "html/en_blog_firefox_nightly_issue85.html";
const DOCKER = "html/en_docs_docker_install_engine.html";
const NPJ = "pdf/en_paper_npj_2020_two_column_ligatures.pdf";
const MDPI = "pdf/en_paper_mdpi_toxins_2016_ligatures.pdf";
const MERGE = { lexical: "merge", semantic: "merge" } as const;
const PARAPHRASE = { lexical: "keep", semantic: "merge" } as const;
const CONTRADICTION = { lexical: "contradiction", semantic: "contradiction" } as const;
const KEEP = { lexical: "keep", semantic: "keep" } as const;

const en = (p: Omit<LabelledPair, "lang">): LabelledPair => ({ ...p, lang: "en" });

/** 70 English pairs. */
export const EN_PAIRS: readonly LabelledPair[] = [
  // restatement: case, punctuation, filler words, a number in words or digits
  en({
    category: "restatement",
    source: WIKI,
    expected: MERGE,
    a: "Mozilla is a free-software community, created in 1998 by members of Netscape.",
    b: "mozilla is a free-software community created in 1998 by members of Netscape",
  }),
  en({
    category: "restatement",
    source: WIKI,
    expected: MERGE,
    a: "Firefox is a web browser, and is Mozilla's flagship software product.",
    b: "Firefox is a web browser and is Mozilla's flagship software product!",
  }),
  en({
    category: "restatement",
    source: NIGHTLY,
    expected: MERGE,
    a: "DevTools and Marionette are now fully Fission compatible!",
    b: "DevTools and Marionette are now fully Fission-compatible.",
  }),
  en({
    category: "restatement",
    source: DOCKER,
    expected: MERGE,
    a: "Docker provides binaries for manual installation of Docker Engine.",
    b: "Docker provides the binaries for manual installation of Docker Engine.",
  }),
  en({
    category: "restatement",
    source: BOTCHAN,
    expected: MERGE,
    a: "Tipped the hotel five yen as tea money.",
    b: "Tipped the hotel 5 yen as tea money.",
  }),
  // paraphrase: other words, no negation, number, unit, date or name changed
  en({
    category: "paraphrase",
    source: BOTCHAN,
    expected: PARAPHRASE,
    a: "I forget now upon what I spent the three yen.",
    b: "What I spent the three yen on has slipped my memory.",
  }),
  en({
    category: "paraphrase",
    source: WIKI,
    expected: PARAPHRASE,
    a: "Firefox was originally named Phoenix but the name was changed so as to avoid trademark conflicts with Phoenix Technologies.",
    b: "To avoid a trademark conflict with Phoenix Technologies, the browser originally called Phoenix was renamed Firefox.",
  }),
  en({
    category: "paraphrase",
    source: WIKI,
    expected: PARAPHRASE,
    a: "Firefox Mobile uses the same Gecko layout engine as Mozilla Firefox.",
    b: "Mozilla Firefox and Firefox Mobile share the Gecko layout engine.",
  }),
  en({
    category: "paraphrase",
    source: WIKI,
    expected: PARAPHRASE,
    a: "Mozilla noted that roughly 85% of their revenue comes from their contract with Google.",
    b: "According to Mozilla, about 85% of its revenue comes from the contract with Google.",
  }),
  en({
    category: "paraphrase",
    source: DOCKER,
    expected: PARAPHRASE,
    a: "These binaries are statically linked and can be used on any Linux distribution.",
    b: "The binaries are linked statically, so they work on every Linux distribution.",
  }),
  en({
    category: "paraphrase",
    source: WIKI,
    expected: PARAPHRASE,
    a: "Gecko is also used by Thunderbird, SeaMonkey, and many non-Mozilla applications.",
    b: "Thunderbird, SeaMonkey and many non-Mozilla applications also use Gecko.",
  }),
  // negation: the same claim with a negation added or removed
  en({
    category: "negation",
    source: DOCKER,
    expected: CONTRADICTION,
    a: "Docker is not involved in releasing these packages and bugs or issues involving these packages should be reported in your Linux distribution’s issue tracker.",
    b: "Docker is involved in releasing these packages and bugs or issues involving these packages should be reported in your Linux distribution’s issue tracker.",
  }),
  en({
    category: "negation",
    source: WIKI,
    expected: CONTRADICTION,
    a: "The x86 architecture is not officially supported.",
    b: "The x86 architecture is officially supported.",
  }),
  en({
    category: "negation",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "I opened the bag and found the edict of the three one-yen bills turned to faint yellow and designs fading.",
    b: "I did not open the bag and found the edict of the three one-yen bills turned to faint yellow and designs fading.",
  }),
  en({
    category: "negation",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "Kiyo was greatly grieved to see the house in which she had lived so many years change ownership, but she was helpless in the matter.",
    b: "Kiyo was not greatly grieved to see the house in which she had lived so many years change ownership, but she was helpless in the matter.",
  }),
  en({
    category: "negation",
    source: WIKI,
    expected: CONTRADICTION,
    a: "Mozilla's manifesto mentions only its beliefs in regards to the Internet and Internet privacy, and has no mention of any political or social viewpoints.",
    b: "Mozilla's manifesto mentions only its beliefs in regards to the Internet and Internet privacy, and has a mention of political or social viewpoints.",
  }),
  en({
    category: "negation",
    source: WIKI,
    expected: CONTRADICTION,
    a: "Rust is intended for creating large and complex software which needs to be both safe against exploits and fast.",
    b: "Rust is intended for creating large and complex software which needs to be both unsafe against exploits and fast.",
  }),
  en({
    category: "negation",
    source: MDPI,
    expected: CONTRADICTION,
    a: "A main group of synthetic peptides that showed significant increase in protein delivery are polyarginines.",
    b: "A main group of synthetic peptides that showed insignificant increase in protein delivery are polyarginines.",
  }),
  // other_fact: the same sentence pattern about another fact
  en({
    category: "other_fact",
    source: WIKI,
    expected: KEEP,
    a: "Firefox Mobile (codenamed Fennec) is the build of the Mozilla Firefox web browser for devices such as smartphones and tablet computers.",
    b: "Thunderbird (codenamed Daybreak) is the build of the Mozilla email client for desktop computers.",
  }),
  en({
    category: "other_fact",
    source: BOTCHAN,
    expected: KEEP,
    a: "Then he produced 50 yen, requesting me to give it to Kiyo next time I saw her, which I readily complied with.",
    b: "Then he produced 600 yen, telling me to begin a business with it or go ahead with my study.",
  }),
  en({
    category: "other_fact",
    source: BOTCHAN,
    expected: KEEP,
    a: "It was a front room of 15 mats (about 90 square feet).",
    b: "It was a back room of 8 mats, dark and damp.",
  }),
  en({
    category: "other_fact",
    source: V8,
    expected: KEEP,
    a: "A real-world example of that is in zeux's meshoptimizer - just 57 lines, including memory management, growth, etc.!",
    b: "A real-world example of that is the add.wasm loader - just 4 lines, printing 42 as expected.",
  }),
  en({
    category: "other_fact",
    source: null,
    expected: KEEP,
    a: "Water boils at 100 °C.",
    b: "Water freezes at 0 °C.",
  }),
  // number: the same claim with another number
  en({
    category: "number",
    source: WIKI,
    expected: CONTRADICTION,
    a: "In a report released in November 2012, Mozilla reported that their total revenue for 2011 was $163 million, which was up 33% from $123 million in 2010.",
    b: "In a report released in November 2012, Mozilla reported that their total revenue for 2011 was $193 million, which was up 33% from $123 million in 2010.",
  }),
  en({
    category: "number",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "On being told that the middle school was about four miles away by rail, I became still more discouraged at putting up there.",
    b: "On being told that the middle school was about ten miles away by rail, I became still more discouraged at putting up there.",
  }),
  en({
    category: "number",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "This shopkeeper's son was a boy about 13 or 14 years old named Kantaro.",
    b: "This shopkeeper's son was a boy about 15 or 16 years old named Kantaro.",
  }),
  en({
    category: "number",
    source: V8,
    expected: CONTRADICTION,
    a: "Running that prints 42 as expected.",
    b: "Running that prints 43 as expected.",
  }),
  // short statements: one word of few changes, so the lexical cosine falls low (0.73–0.88)
  en({
    category: "number",
    source: NPJ,
    expected: CONTRADICTION,
    a: "CTR showed a phase delay of 0.69 h.",
    b: "CTR showed a phase delay of 0.96 h.",
  }),
  en({
    category: "number",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "My watch showed it was half past ten.",
    b: "My watch showed it was half past eleven.",
  }),
  en({
    category: "number",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "Am sleeping in a room of 15 mats.",
    b: "Am sleeping in a room of 8 mats.",
  }),
  en({
    category: "number",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "Those six boys filed out leisurely.",
    b: "Those five boys filed out leisurely.",
  }),
  en({
    category: "number",
    source: null,
    expected: CONTRADICTION,
    a: "Mozilla was founded in 1998.",
    b: "Mozilla was founded in 2003.",
  }),
  // date: the same claim on another day, month or year
  en({
    category: "date",
    source: WIKI,
    expected: CONTRADICTION,
    a: "The current name, Firefox, was chosen on February 9, 2004.",
    b: "The current name, Firefox, was chosen on March 9, 2004.",
  }),
  en({
    category: "date",
    source: WIKI,
    expected: CONTRADICTION,
    a: "On March 24, 2014, Mozilla promoted Brendan Eich to the role of CEO.",
    b: "On March 24, 2012, Mozilla promoted Brendan Eich to the role of CEO.",
  }),
  en({
    category: "date",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "In January of the 6th year after mother's death, father died of apoplexy.",
    b: "In June of the 6th year after mother's death, father died of apoplexy.",
  }),
  en({
    category: "date",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "Tokyo, September, 1918.",
    b: "Tokyo, October, 1918.",
  }),
  // unit: the same number in another unit
  en({
    category: "unit",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "Lying in my bed, I meditated on the best way to spend that 600 yen.",
    b: "Lying in my bed, I meditated on the best way to spend that 600 dollars.",
  }),
  en({
    category: "unit",
    source: V8,
    expected: CONTRADICTION,
    a: "Disassembling it, it's very minimal - just 87 bytes!",
    b: "Disassembling it, it's very minimal - just 87 kilobytes!",
  }),
  en({
    category: "unit",
    source: null,
    expected: CONTRADICTION,
    a: "The recommended daily dose is 5 mg.",
    b: "The recommended daily dose is 5 g.",
  }),
  en({
    category: "unit",
    source: null,
    expected: CONTRADICTION,
    a: "The trail is 10 km long.",
    b: "The trail is 10 miles long.",
  }),
  en({
    category: "unit",
    source: NPJ,
    expected: CONTRADICTION,
    a: "The exercise was scheduled three times per week.",
    b: "The exercise was scheduled three times per day.",
  }),
  en({ category: "unit", source: null, expected: CONTRADICTION, a: "The dose is 5 mg.", b: "The dose is 5 g." }),
  // comparison: the same quantity under another comparator
  en({
    category: "comparison",
    source: NPJ,
    expected: CONTRADICTION,
    a: "All model fits confirmed the existence of a rhythm in the time series (p < 0.0001).",
    b: "All model fits confirmed the existence of a rhythm in the time series (p > 0.0001).",
  }),
  en({
    category: "comparison",
    source: NPJ,
    expected: CONTRADICTION,
    a: "Data sets containing less than 85% of the 24-h recording time were discarded.",
    b: "Data sets containing more than 85% of the 24-h recording time were discarded.",
  }),
  en({
    category: "comparison",
    source: NPJ,
    expected: CONTRADICTION,
    a: "There were no significant differences in age and height between groups (all p ≥ 0.60, Wilcoxon’s signed-rank test).",
    b: "There were no significant differences in age and height between groups (all p ≤ 0.60, Wilcoxon’s signed-rank test).",
  }),
  en({
    category: "comparison",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "Must expect to keep it up for at least two weeks.",
    b: "Must expect to keep it up for at most two weeks.",
  }),
  en({
    category: "comparison",
    source: null,
    expected: CONTRADICTION,
    a: "The treatment effect was significant (p < 0.05) in the trial.",
    b: "The treatment effect was significant (p > 0.05) in the trial.",
  }),
  // opposite: an antonym or another quantifier in the same statement
  en({
    category: "opposite",
    source: DOCKER,
    expected: CONTRADICTION,
    a: "Patch releases are always backward compatible with its year-month version.",
    b: "Patch releases are never backward compatible with its year-month version.",
  }),
  en({
    category: "opposite",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "I always paid the first class.",
    b: "I never paid the first class.",
  }),
  en({
    category: "opposite",
    source: MDPI,
    expected: CONTRADICTION,
    a: "For some of the compounds, the exact mechanism of action has not been completely elucidated yet.",
    b: "For all of the compounds, the exact mechanism of action has not been completely elucidated yet.",
  }),
  en({
    category: "opposite",
    source: NPJ,
    expected: CONTRADICTION,
    a: "These data would predict exercise-induced phase advances for exercise scheduled after 11 am.",
    b: "These data would predict exercise-induced phase advances for exercise scheduled before 11 am.",
  }),
  en({
    category: "opposite",
    source: DOCKER,
    expected: CONTRADICTION,
    a: "The Test channel gives pre-releases that are ready for testing before general availability (GA).",
    b: "The Test channel gives pre-releases that are ready for testing after general availability (GA).",
  }),
  en({
    category: "opposite",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "He tried to sell pictures and curios to you, but as you shook him off, he told some false stories on you.",
    b: "He tried to sell pictures and curios to you, but as you shook him off, he told some true stories on you.",
  }),
  en({
    category: "opposite",
    source: NIGHTLY,
    expected: CONTRADICTION,
    a: "That will both hide the shortcut button and disable tab-to-search for the engine.",
    b: "That will both show the shortcut button and enable tab-to-search for the engine.",
  }),
  en({
    category: "opposite",
    source: NPJ,
    expected: CONTRADICTION,
    a: "RE performed HDBR plus three times per week high-load resistive exercise (n = 5).",
    b: "RE performed HDBR plus three times per week low-load resistive exercise (n = 5).",
  }),
  // entity: the same claim about another named entity
  en({
    category: "entity",
    source: WIKI,
    expected: KEEP,
    a: "Firefox Mobile is currently available for Android 2.2 and above devices with an ARMv7 or ARMv6 CPU.",
    b: "Firefox Mobile is currently available for Windows 2.2 and above devices with an ARMv7 or ARMv6 CPU.",
  }),
  en({
    category: "entity",
    source: WIKI,
    expected: KEEP,
    a: "One day later, Jamie Zawinski from Netscape registered mozilla.org.",
    b: "One day later, Brendan Eich from Netscape registered mozilla.org.",
  }),
  en({
    category: "entity",
    source: null,
    expected: KEEP,
    a: "The capital of France is Paris.",
    b: "The capital of Germany is Berlin.",
  }),
  en({
    category: "entity",
    source: BOTCHAN,
    expected: KEEP,
    a: "Clown claims himself as a Yedo kid.",
    b: "Porcupine claims himself as a Yedo kid.",
  }),
  en({
    category: "entity",
    source: V8,
    expected: KEEP,
    a: "Emscripten has always focused first and foremost on compiling to the Web and other JavaScript environments like Node.js.",
    b: "Binaryen has always focused first and foremost on compiling to the Web and other JavaScript environments like Node.js.",
  }),
  en({ category: "entity", source: null, expected: KEEP, a: "Smith wrote the paper.", b: "Jones wrote the paper." }),
  // roles: the same names, the same words, the roles swapped
  en({
    category: "roles",
    source: WIKI,
    expected: CONTRADICTION,
    a: "Rhino converts JavaScript scripts into Java classes.",
    b: "Rhino converts Java classes into JavaScript scripts.",
  }),
  en({
    category: "roles",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "Kiyo is far superior to Red Shirt.",
    b: "Red Shirt is far superior to Kiyo.",
  }),
  en({
    category: "roles",
    source: BOTCHAN,
    expected: CONTRADICTION,
    a: "Porcupine bitterly condemned Hubbard Squash for being too good-natured.",
    b: "Hubbard Squash bitterly condemned Porcupine for being too good-natured.",
  }),
  // unrelated
  en({
    category: "unrelated",
    source: BOTCHAN,
    expected: KEEP,
    a: "I hate most to write letters because I am poor at sentence-making and also poor in my stock of words.",
    b: "Docker Engine has three types of update channels, stable, test, and nightly.",
  }),
  en({
    category: "unrelated",
    source: V8,
    expected: KEEP,
    a: "Plugins are sometimes related to dynamic libraries, as dynamic libraries are one way to implement them.",
    b: "Nine yen would not take me back to Tokyo.",
  }),
  en({
    category: "unrelated",
    source: NIGHTLY,
    expected: KEEP,
    a: "Users who run multiple user profiles concurrently will probably see this less!",
    b: "The Stable channel gives you latest releases for general availability.",
  }),
  en({
    category: "unrelated",
    source: DOCKER,
    expected: KEEP,
    a: "Refer to the documentation of your distro to find which Debian release corresponds with your derivative version.",
    b: "Firefox began as an experimental branch of the Mozilla codebase by Dave Hyatt, Joe Hewitt and Blake Ross.",
  }),
  en({
    category: "unrelated",
    source: BOTCHAN,
    expected: KEEP,
    a: "Red Shirt tottered.",
    b: "Are there any necessary ones?",
  }),
  en({
    category: "unrelated",
    source: BOTCHAN,
    expected: KEEP,
    a: "Caught one already?",
    b: "The level of significance was set at 0.05 (two-sided) for all testing.",
  }),
];
