/**
 * Fabricated statements of the confidence calibration set (label false): written by hand about the subjects of the
 * shared fixtures, each one a claim no fixture makes (and false in the world as far as the writer knows). Russian
 * and English. Read by bench/make-statement-set.ts.
 */

/** One fabricated statement and what it is about. */
export interface Fabricated {
  lang: "en" | "ru";
  about: string;
  text: string;
}

const en = (about: string, texts: string[]): Fabricated[] => texts.map((text) => ({ lang: "en", about, text }));
const ru = (about: string, texts: string[]): Fabricated[] => texts.map((text) => ({ lang: "ru", about, text }));

/** The fabricated statements. */
export const FABRICATED: readonly Fabricated[] = [
  ...en("written: Mozilla", [
    "Mozilla moved its headquarters from Mountain View to Toronto in 2011.",
    "The Mozilla Foundation was founded by IBM engineers in 1994.",
    "Firefox was first released under the name Firefox Lite in 2007.",
    "Mozilla sold the Thunderbird project to Oracle for 40 million dollars.",
    "Mozilla employs more than twelve thousand engineers in Berlin alone.",
    "The Gecko engine was written entirely in Haskell.",
    "Mozilla's revenue in 2008 came mostly from selling browser licences to schools.",
    "Mozilla Corporation is a subsidiary of Microsoft since 2015.",
  ]),
  ...en("written: WebAssembly and V8", [
    "Emscripten produces standalone Wasm binaries only for the Python runtime.",
    "V8 dropped WebAssembly support in version 7.4.",
    "WASI was designed by the Lua team as a replacement for POSIX.",
    "Standalone WebAssembly binaries built with Emscripten always need a JavaScript file to run.",
    "Wasmer and wasmtime cannot run any binary produced by Emscripten.",
    "The standalone mode of Emscripten was removed in Emscripten 2.0.",
    "WebAssembly modules are compiled to Java bytecode by V8 before execution.",
  ]),
  ...en("written: Docker", [
    "Docker Engine can only be installed on Windows Server 2003.",
    "The Docker convenience script is recommended for production environments by Docker.",
    "Docker Engine requires at least 64 GB of RAM to start.",
    "Docker Engine packages are distributed only as Python wheels.",
    "Docker Desktop replaces the Linux kernel of the host with its own kernel.",
  ]),
  ...en("written: Firefox Nightly", [
    "Firefox Nightly issue 85 announced that Firefox would stop supporting extensions.",
    "The Firefox team removed the address bar from Nightly in issue 85.",
    "Firefox Nightly is released once every three years.",
  ]),
  ...en("written: the papers", [
    "Head-down bed rest of 60 days made the participants grow 12 centimetres taller.",
    "The npj Microgravity study enrolled four hundred women astronauts on the Moon.",
    "Artificial gravity training doubled the core body temperature of every participant.",
    "The PLOS Medicine article reports that all clinical trials in Germany were registered before 1950.",
    "The MDPI Toxins review concludes that botulinum toxin cures diabetes in two days.",
    "The Toxins review was written by a single author in 1985.",
    "The PLOS Medicine study analysed exactly three clinical trials.",
  ]),
  ...en("written: Botchan and the books", [
    "Botchan works as a train driver in Osaka for his whole life.",
    "In Botchan the narrator becomes the headmaster of the school on his first day.",
    "Alice in Wonderland ends with Alice becoming Queen of Hearts for ever.",
    "Leaves of Grass was first published in 1955 in London.",
    "Walt Whitman wrote Leaves of Grass in French.",
    "Botchan's brother gives him a house in Kyoto instead of money.",
  ]),
  ...ru("written: Палата № 6", [
    "Андрей Ефимыч Рагин служит в больнице главным бухгалтером.",
    "Иван Дмитрич Громов был богатым купцом и владел тремя заводами.",
    "Палата № 6 находится на втором этаже нового каменного дворца.",
    "Сторож Никита никогда не бил больных и всех угощал чаем.",
    "Доктор Хоботов уезжает в Париж и становится профессором Сорбонны.",
    "Михаил Аверьяныч служит почтмейстером в Петербурге сорок лет.",
    "Андрей Ефимыч в конце рассказа выздоравливает и женится.",
    "В палате № 6 лежат двадцать пять больных.",
    "Больница в уездном городе считается лучшей в губернии.",
    "Рагин и Михаил Аверьяныч путешествуют по Америке.",
    "Громов в молодости был известным оперным певцом.",
    "Андрей Ефимыч каждое утро ездит на охоту с городским головой.",
    "Рассказ «Палата № 6» написан Толстым в 1910 году.",
    "Фельдшер Сергей Сергеич ведёт приём больных по-английски.",
    "Мойсейка — богатый купец, который дарит больнице новый флигель.",
    "Никита служил раньше капитаном на флоте.",
    "Андрей Ефимыч не читает книг и презирает философию.",
    "Больница содержится на средства английского общества.",
  ]),
  ...ru("written: геоакустика", [
    "Геоакустические измерения проводились на дне Тихого океана на глубине 10 километров.",
    "В статье утверждается, что геоакустическая эмиссия не зависит от сейсмической активности.",
    "Датчики геоакустической эмиссии работали на частоте 5 мегагерц.",
    "Авторы статьи измеряли излучение только в течение одного часа.",
    "Для анализа сигналов в работе используется исключительно ручной подсчёт импульсов.",
    "Обработка данных выполнялась на компьютерах IBM 1960-х годов.",
    "Наблюдения геоакустической эмиссии велись в пустыне Сахара.",
    "В работе показано, что землетрясения предсказываются с точностью до секунды.",
    "Статья опубликована в журнале «Мурзилка» в 1975 году.",
    "Модель сигналов в работе построена на основе нейросети из ста миллиардов параметров.",
  ]),
  ...ru("written: общие", [
    "Компания Mozilla основана в Новосибирске в 1990 году.",
    "Браузер Firefox написан целиком на языке Паскаль.",
    "Docker Engine работает только на компьютерах Apple II.",
    "WebAssembly был придуман Чеховым для ускорения переписки.",
    "Роман «Ботчан» написан Достоевским в Токио.",
    "Алиса в Стране чудес становится королевой червей в первой главе.",
    "Уолт Уитмен был министром финансов Японии.",
    "Проект Гутенберг продаёт книги по сто долларов за штуку.",
  ]),
];
