// What the engine says when it had to end Python: in the middle of a user regex
// (web/lib/regex-watch.js; the file and the field come first, as in every error), after
// a request had no answer in its time, or when the reader pressed Stop.
import { register } from "../i18n/index.js";

register({
  en: {
    "engine.noAnswer": "no answer from Python in {seconds} s",
    "engine.cancelled": "stopped",
    "engine.regex.error": "the regex “{pattern}” ran for more than {seconds} s on this text without finishing: it backtracks too much",
    "engine.regex.stuck": "the regex “{pattern}” ran for more than {seconds} s on this text without finishing (it backtracks too much), so Python was stopped. It is starting again with your tokenizers and text…",
    "engine.regex.restored": "the regex “{pattern}” ran for more than {seconds} s on this text without finishing (it backtracks too much), so Python was restarted; your tokenizers and text are back. The tokenizer still works on other texts; to use it on this one, simplify the regex.",
  },
  vi: {
    "engine.noAnswer": "Python không trả lời trong {seconds} giây",
    "engine.cancelled": "đã dừng",
    "engine.regex.error": "biểu thức chính quy “{pattern}” chạy hơn {seconds} giây trên văn bản này mà chưa xong: nó quay lui quá nhiều",
    "engine.regex.stuck": "biểu thức chính quy “{pattern}” chạy hơn {seconds} giây trên văn bản này mà chưa xong (nó quay lui quá nhiều), nên Python đã bị dừng. Python đang khởi động lại cùng bộ tách token và văn bản của bạn…",
    "engine.regex.restored": "biểu thức chính quy “{pattern}” chạy hơn {seconds} giây trên văn bản này mà chưa xong (nó quay lui quá nhiều), nên Python đã được khởi động lại; bộ tách token và văn bản của bạn đã trở lại. Bộ tách token vẫn dùng được với văn bản khác; muốn dùng nó với văn bản này, hãy đơn giản hoá biểu thức.",
  },
  zh: {
    "engine.noAnswer": "Python 在 {seconds} 秒内没有回应",
    "engine.cancelled": "已停止",
    "engine.regex.error": "正则表达式“{pattern}”在这段文本上运行超过 {seconds} 秒仍未结束：它回溯太多",
    "engine.regex.stuck": "正则表达式“{pattern}”在这段文本上运行超过 {seconds} 秒仍未结束（它回溯太多），因此 Python 已被停止。它正在重新启动，并恢复你的分词器和文本……",
    "engine.regex.restored": "正则表达式“{pattern}”在这段文本上运行超过 {seconds} 秒仍未结束（它回溯太多），因此 Python 已重新启动，你的分词器和文本都已恢复。这个分词器在其他文本上仍可使用；要用于这段文本，请简化该正则表达式。",
  },
});
