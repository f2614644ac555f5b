"""Find secrets in text and JSON values, so the write gate can refuse to store them.

A memory store must never keep a password, token, key or card number, whatever key
an extractor filed it under: a "current_task" of "log in with password Tr0ub4dor&3"
is a secret just as much as an "api_key" is. The gate therefore scans every value
(and its evidence) with :func:`find_secrets`, and rejects on any finding.

Why it is built this way:

* **Maintained detectors first.** Vendor token formats come from the detector plugins
  of ``detect-secrets`` (AWS, GitHub, GitLab, Slack, Stripe, OpenAI, JWT, private keys,
  basic-auth URLs, Twilio, SendGrid, npm, PyPI, Azure, IBM, Mailchimp, Square, Telegram,
  Discord, Artifactory, SoftLayer, Cloudant, keyword assignments). Check digits come
  from ``python-stdnum`` (Luhn for payment cards, ISO 13616 for IBANs, national id
  checksums). Home-made patterns only supplement them where they have a known gap
  (short ``sk-…`` keys, ``hf_``/``AIza``/``github_pat_`` families, ``ENCRYPTED PRIVATE
  KEY`` blocks) and for secrets *stated in words* ("my password is …", "密码是…",
  "rotate the DB password, the new one is …", "my PIN is four eight two one"), numbers
  named by what they are ("card number …", "护照号 …", "the door code is …"), passwords
  on command lines ("mysql -pS3cret", "curl -u admin:…") and wallet recovery phrases,
  which no library covers.
* **No global state, no I/O.** The plugins are instantiated once at import. Their
  ``analyze_line`` consults detect-secrets' process-wide settings and may call a
  vendor's verification endpoint, so it is never used: we run the plugins' own
  compiled ``denylist`` patterns (exactly what their ``analyze_string`` runs) with
  ``finditer`` to get offsets, and call their entropy functions directly.
* **Offsets are code points into the text as given.** Full-width ASCII
  (``ｓｋ－…``, ``密码：``) is folded one character to one character before scanning,
  so offsets are unchanged and ``text[start:end]`` is always the secret.
* **Noise is the enemy of a gate.** A false positive silently drops a legitimate
  memory, so the entropy detectors only look at long mixed letter/digit tokens outside
  URLs, and word cues need a value that looks like a secret, not "yesterday" or
  "manager".
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

# detect-secrets pulls in ``requests``; in some environments that import emits a
# dependency-version warning. The test suite turns warnings into errors, and a
# warning about an HTTP stack we never use must not break the gate, so silence
# warnings for these imports only.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from detect_secrets.filters.heuristic import (
        is_potential_uuid,
        is_prefixed_with_dollar_sign,
        is_sequential_string,
        is_templated_secret,
    )
    from detect_secrets.plugins import keyword as _ds_keyword
    from detect_secrets.plugins.artifactory import ArtifactoryDetector
    from detect_secrets.plugins.aws import AWSKeyDetector
    from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
    from detect_secrets.plugins.base import RegexBasedDetector
    from detect_secrets.plugins.basic_auth import BasicAuthDetector
    from detect_secrets.plugins.cloudant import CloudantDetector
    from detect_secrets.plugins.discord import DiscordBotTokenDetector
    from detect_secrets.plugins.github_token import GitHubTokenDetector
    from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
    from detect_secrets.plugins.high_entropy_strings import (
        Base64HighEntropyString,
        HexHighEntropyString,
    )
    from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
    from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
    from detect_secrets.plugins.jwt import JwtTokenDetector
    from detect_secrets.plugins.mailchimp import MailchimpDetector
    from detect_secrets.plugins.npm import NpmDetector
    from detect_secrets.plugins.openai import OpenAIDetector
    from detect_secrets.plugins.private_key import PrivateKeyDetector
    from detect_secrets.plugins.pypi_token import PypiTokenDetector
    from detect_secrets.plugins.sendgrid import SendGridDetector
    from detect_secrets.plugins.slack import SlackDetector
    from detect_secrets.plugins.softlayer import SoftlayerDetector
    from detect_secrets.plugins.square_oauth import SquareOAuthDetector
    from detect_secrets.plugins.stripe import StripeDetector
    from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
    from detect_secrets.plugins.twilio import TwilioKeyDetector
    from stdnum import iban as _iban
    from stdnum import luhn as _luhn
    from stdnum.cn import ric as _cn_ric
    from stdnum.es import dni as _es_dni
    from stdnum.es import nie as _es_nie
    from stdnum.fr import nir as _fr_nir
    from stdnum.it import codicefiscale as _it_cf
    from stdnum.us import ssn as _us_ssn

__all__ = ["KINDS", "SecretFinding", "find_secrets", "find_secrets_in_value"]

KINDS = frozenset(
    {
        "api_key",
        "token",
        "private_key",
        "password",
        "card_number",
        "iban",
        "national_id",
        "connection_string",
        "high_entropy",
    }
)


@dataclass(frozen=True)
class SecretFinding:
    """One secret found in a string.

    ``start``/``end`` are code-point offsets (``end`` exclusive) into the scanned
    string, so ``text[start:end]`` is the secret itself; the gate can quote the
    kind and detector in an audited rejection without ever repeating the value.
    """

    kind: str
    start: int
    end: int
    detector: str


# --------------------------------------------------------------------------- helpers

# Full-width forms of printable ASCII (U+FF01..U+FF5E) and the ideographic space
# fold to ASCII one-for-one, so patterns written for ASCII work on "密码：abc" and the
# offsets into the folded text are offsets into the original. Chinese sentence
# punctuation (，；！？（）) is left alone: it ends a value rather than belonging to it.
_FOLD = {0xFF01 + i: 0x21 + i for i in range(0x5E)}
for _keep in "，；！？（）":
    del _FOLD[ord(_keep)]
_FOLD[0x3000] = 0x20


def _fold(text: str) -> str:
    return text.translate(_FOLD)


def _has_digit(s: str) -> bool:
    return any(c.isdigit() for c in s)


def _has_alpha(s: str) -> bool:
    return any(c.isalpha() for c in s)


# Symbols that passwords carry and prose does not ("-", "'", "/", "." and "_" appear
# in hyphenated words, paths and identifiers).
_SECRET_SYMBOLS = frozenset("!@#$%^&*+=?~|\\<>;{}[]")


def _looks_secret(value: str) -> bool:
    """A value that is not a plain word: it has a digit, a symbol or inner capitals.

    Used where the cue alone is weak ("pw hunter2", "用密码 Tr0ub4dor&3 登录") so
    that "password manager" or "I changed my password yesterday" stay clean.
    """
    if _has_digit(value):
        return True
    if any(c in _SECRET_SYMBOLS for c in value):
        return True
    return any(c.isupper() for c in value[1:])


# ------------------------------------------------------------ detect-secrets plugins

# (plugin instance, kind). Instantiated once: they are stateless pattern holders here.
_DS_REGEX_PLUGINS: tuple[tuple[RegexBasedDetector, str], ...] = (
    (AWSKeyDetector(), "api_key"),
    (ArtifactoryDetector(), "token"),
    (AzureStorageKeyDetector(), "api_key"),
    (BasicAuthDetector(), "connection_string"),
    (CloudantDetector(), "api_key"),
    (DiscordBotTokenDetector(), "token"),
    (GitHubTokenDetector(), "token"),
    (GitLabTokenDetector(), "token"),
    (IbmCloudIamDetector(), "api_key"),
    (IbmCosHmacDetector(), "api_key"),
    (JwtTokenDetector(), "token"),
    (MailchimpDetector(), "api_key"),
    (NpmDetector(), "token"),
    (OpenAIDetector(), "api_key"),
    (PrivateKeyDetector(), "private_key"),
    (PypiTokenDetector(), "token"),
    (SendGridDetector(), "api_key"),
    (SlackDetector(), "token"),
    (SoftlayerDetector(), "api_key"),
    (SquareOAuthDetector(), "token"),
    (StripeDetector(), "api_key"),
    (TelegramBotTokenDetector(), "token"),
    (TwilioKeyDetector(), "api_key"),
)

# In these plugins a capture group names the vendor prefix ("ghp", "glpat"), not the
# secret, so the whole match is the secret.
_WHOLE_MATCH = (GitHubTokenDetector, GitLabTokenDetector)

_BASE64_PLUGIN = Base64HighEntropyString()
_HEX_PLUGIN = HexHighEntropyString()
_JWT_VALID = JwtTokenDetector.is_formally_valid
_JWT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.+/=")

_PEM_BEGIN = re.compile(r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
_OPENING = "\"'`([{<"
_CLOSING = "\"'`)]}>"


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop surrounding whitespace and quotes/brackets a pattern swallowed."""
    while start < end and (text[start].isspace() or text[start] in _OPENING or text[start] in "=:"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in _CLOSING):
        end -= 1
    return start, end


def _pem_block(text: str, pos: int) -> tuple[int, int]:
    """Widen a private-key header hit at ``pos`` to the whole armoured block."""
    begin = text.rfind("-----BEGIN", 0, pos + 1)
    start = begin if begin != -1 and pos - begin <= 40 else pos
    end_match = _PEM_END.search(text, pos)
    end = end_match.end() if end_match else len(text)
    return start, end


def _scan_detect_secrets(text: str) -> Iterator[SecretFinding]:
    for plugin, kind in _DS_REGEX_PLUGINS:
        name = f"detect_secrets:{type(plugin).__name__}"
        for regex in plugin.denylist:
            for m in regex.finditer(text):
                if regex.groups and not isinstance(plugin, _WHOLE_MATCH):
                    group = next((i for i in range(1, regex.groups + 1) if m.group(i)), 0)
                    start, end = m.span(group)
                else:
                    start, end = m.span()
                if kind == "private_key":
                    start, end = _pem_block(text, start)
                else:
                    start, end = _trim(text, start, end)
                    if isinstance(plugin, NpmDetector):
                        space = re.search(r"\s", text[start:end])
                        if space:
                            end = start + space.start()
                    if isinstance(plugin, JwtTokenDetector):
                        # The plugin's pattern stops lazily before the signature.
                        while end < len(text) and text[end] in _JWT_CHARS:
                            end += 1
                        if not _JWT_VALID(text[start:end].rstrip(".")):
                            continue
                if end > start:
                    yield SecretFinding(kind, start, end, name)
    # Assignments in code or config: password = "…", api_key: '…'. The plugin only
    # reports the first hit per pattern; run its patterns to see every one.
    for regex, group in _ds_keyword.QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP.items():
        for m in regex.finditer(text):
            start, end = _trim(text, *m.span(group))
            value = text[start:end]
            if (
                end <= start
                or is_templated_secret(value)
                or is_prefixed_with_dollar_sign(value)
                or _PLACEHOLDER.match(value)
                or value.lower() in _STOPWORDS
            ):
                continue
            label = m.group(0).lower()
            kind = "password" if ("pass" in label or "pwd" in label) else "token"
            yield SecretFinding(kind, start, end, "detect_secrets:KeywordDetector")


def _scan_pem(text: str) -> Iterator[SecretFinding]:
    # detect-secrets lists specific headers; "ENCRYPTED PRIVATE KEY" and other
    # PKCS#8 variants are not among them.
    for m in _PEM_BEGIN.finditer(text):
        start, end = _pem_block(text, m.start())
        yield SecretFinding("private_key", start, end, "pem:private_key")


# ---------------------------------------------------------- well-known key prefixes

# Supplements detect-secrets where its patterns need a longer or differently shaped
# body than real keys (or test keys) have: OpenAI "sk-…"/"sk-proj-…" without the
# T3BlbkFJ marker, short GitHub/GitLab tokens, Google, Hugging Face.
_PREFIX_FAMILIES: tuple[tuple[str, str, str], ...] = (
    ("openai", "api_key", r"sk-(?:proj|svcacct|admin|ant-api\d\d|ant)-[A-Za-z0-9_\-]{16,}"),
    ("openai", "api_key", r"sk-[A-Za-z0-9_\-]{16,}"),
    ("stripe", "api_key", r"[rs]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("github", "token", r"gh[pousr]_[A-Za-z0-9]{20,}"),
    ("github", "token", r"github_pat_[A-Za-z0-9_]{22,}"),
    ("slack", "token", r"xox[abposr]-[A-Za-z0-9\-]{10,}"),
    ("slack", "token", r"xapp-[A-Za-z0-9\-]{10,}"),
    ("aws", "api_key", r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{12,20}"),
    ("google", "api_key", r"AIza[0-9A-Za-z_\-]{30,}"),
    ("google", "token", r"ya29\.[0-9A-Za-z_\-]{20,}"),
    ("gitlab", "token", r"gl(?:pat|dt|rt|ft|soat)-[A-Za-z0-9_\-]{16,}"),
    ("huggingface", "token", r"hf_[A-Za-z0-9]{20,}"),
    ("npm", "token", r"npm_[A-Za-z0-9]{30,}"),
    ("pypi", "token", r"pypi-[A-Za-z0-9_\-]{40,}"),
)
_PREFIX_RE = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:"
    + "|".join(f"(?P<p{i}>{pat})" for i, (_, _, pat) in enumerate(_PREFIX_FAMILIES))
    + r")(?![A-Za-z0-9_\-])"
)


def _scan_prefixes(text: str) -> Iterator[SecretFinding]:
    for m in _PREFIX_RE.finditer(text):
        index = int(next(k for k, v in m.groupdict().items() if v is not None)[1:])
        family, kind, _ = _PREFIX_FAMILIES[index]
        token = m.group(0)
        if family == "openai" and not token.startswith(("sk-proj-", "sk-ant-", "sk-svcacct-")):
            # Bare "sk-" is common in prose ("sk-learn"); demand a key-like body.
            body = token[3:]
            if not (_has_digit(body) or any(c.isupper() for c in body)):
                continue
        yield SecretFinding(kind, m.start(), m.end(), f"prefix:{family}")


# -------------------------------------------------------------- connection strings

# Basic-auth URLs are detect-secrets' job (BasicAuthDetector reports the password);
# this reports the whole credential part when the password itself contains reserved
# characters ("p@ss") that the plugin's pattern stops at.
_URL_CRED = re.compile(
    r"(?<![A-Za-z0-9+.\-])[a-zA-Z][a-zA-Z0-9+.\-]*://([^\s:/@]+):([^\s/]+)@[\w.\-]+"
)


def _scan_connection_strings(text: str) -> Iterator[SecretFinding]:
    for m in _URL_CRED.finditer(text):
        start, end = m.span(2)
        if end > start:
            yield SecretFinding("connection_string", start, end, "url:userinfo")


# ---------------------------------------------------------------- payment cards

# IBAN shape (ISO 13616): country, check digits, up to 30 alphanumerics.
_IBAN_RE = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![A-Za-z0-9])")
_CARD_RE = re.compile(r"(?<![A-Za-z0-9_+\-./,:])\d(?:[ \-]?\d){11,22}(?![0-9])")
# How cards are printed: 4-4-4-4 (most), 4-4-4-4-3 (19 digits), 4-6-5 (Amex),
# 4-6-4 (Diners). Other groupings are phone numbers, IBAN tails or order numbers.
_CARD_GROUPINGS = frozenset({(4, 4, 4, 4), (4, 4, 4, 4, 3), (4, 6, 5), (4, 6, 4)})


def _card_prefix_plausible(digits: str) -> bool:
    """Issuer prefixes of the major schemes (Visa, Mastercard incl. 2-series, Amex,
    Diners, JCB, Discover, UnionPay, Maestro); keeps timestamps and order numbers out."""
    if digits[0] in "3456":
        return True
    return 2221 <= int(digits[:4]) <= 2720


def _is_card(digits: str) -> bool:
    return (
        13 <= len(digits) <= 19
        and len(set(digits)) > 1
        and _card_prefix_plausible(digits)
        and _luhn.is_valid(digits)
    )


def _scan_cards(text: str) -> Iterator[SecretFinding]:
    # An IBAN-shaped run is never a card, valid checksum or not.
    ibans = [m.span() for m in _IBAN_RE.finditer(text)]
    for m in _CARD_RE.finditer(text):
        if any(s < m.end() and m.start() < e for s, e in ibans):
            continue
        raw = m.group(0)
        groups = [g.span() for g in re.finditer(r"\d+", raw)]
        if len(groups) == 1 or len(set(re.findall(r"\D", raw))) > 1:
            # Unseparated, or mixed separators: only the whole run can be a card.
            if len(groups) == 1 and _is_card(raw):
                yield SecretFinding("card_number", m.start(), m.end(), "stdnum:luhn")
            continue
        for i in range(len(groups)):
            for j in range(len(groups) - 1, i, -1):
                sizes = tuple(e - s for s, e in groups[i : j + 1])
                s, e = groups[i][0], groups[j][1]
                if sizes in _CARD_GROUPINGS and _is_card(re.sub(r"\D", "", raw[s:e])):
                    yield SecretFinding("card_number", m.start() + s, m.start() + e, "stdnum:luhn")
                    break


# ------------------------------------------------------------------------ IBANs


def _scan_ibans(text: str) -> Iterator[SecretFinding]:
    for m in _IBAN_RE.finditer(text):
        raw = m.group(0)
        # A following upper-case word may have been swallowed; shrink by groups.
        cut_points = [len(raw)] + [i for i in range(len(raw) - 1, 0, -1) if raw[i] == " "]
        for cut in cut_points:
            candidate = raw[:cut].rstrip()
            if len(candidate.replace(" ", "")) < 15:
                break
            if _iban.is_valid(candidate):
                yield SecretFinding("iban", m.start(), m.start() + len(candidate), "stdnum:iban")
                break


# -------------------------------------------------------------- national ids

_NATIONAL_IDS: tuple[tuple[str, re.Pattern[str], Callable[[str], bool]], ...] = (
    ("stdnum:cn.ric", re.compile(r"(?<![0-9A-Za-z])\d{17}[\dXx](?![0-9A-Za-z])"), _cn_ric.is_valid),
    # Only the dashed form: a bare nine-digit number is far too often something else.
    ("stdnum:us.ssn", re.compile(r"(?<![\d\-])\d{3}-\d{2}-\d{4}(?![\d\-])"), _us_ssn.is_valid),
    ("stdnum:es.dni", re.compile(r"(?<![0-9A-Za-z])\d{8}-?[A-Z](?![0-9A-Za-z])"), _es_dni.is_valid),
    (
        "stdnum:es.nie",
        re.compile(r"(?<![0-9A-Za-z])[XYZ]-?\d{7}-?[A-Z](?![0-9A-Za-z])"),
        _es_nie.is_valid,
    ),
    (
        "stdnum:it.codicefiscale",
        re.compile(
            r"(?<![0-9A-Za-z])[A-Z]{6}[\dLMNPQRSTUV]{2}[A-EHLMPRST][\dLMNPQRSTUV]{2}"
            r"[A-Z][\dLMNPQRSTUV]{3}[A-Z](?![0-9A-Za-z])"
        ),
        _it_cf.is_valid,
    ),
    (
        "stdnum:fr.nir",
        re.compile(
            r"(?<![0-9A-Za-z])[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}"
            r"(?![0-9A-Za-z])"
        ),
        _fr_nir.is_valid,
    ),
)

_SSN_CUE = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:ssn|social\s+security(?:\s+(?:number|no\.?|#))?)\s*(?:is|:|#|=)?\s*"
    r"(?P<v>(?<!\d)\d{9}(?!\d))"
)


def _scan_national_ids(text: str) -> Iterator[SecretFinding]:
    for name, regex, is_valid in _NATIONAL_IDS:
        for m in regex.finditer(text):
            if is_valid(m.group(0)):
                yield SecretFinding("national_id", m.start(), m.end(), name)
    for m in _SSN_CUE.finditer(text):
        if _us_ssn.is_valid(m.group("v")):
            yield SecretFinding("national_id", m.start("v"), m.end("v"), "stdnum:us.ssn")


# ------------------------------------------------------- secrets stated in words

# Each cue family says how strict the value after it must be.
_PASSWORD, _PIN, _CODE, _CVV, _TOKEN = "password", "pin", "code", "cvv", "token"

_EN_CUES = (
    (_PASSWORD, r"pass(?:word|wd|phrase|code)s?|pwd|pw|p/w"),
    (_PIN, r"pin(?:\s*(?:code|number|no\.?))?"),
    (
        _CODE,
        r"one[\s\-]?time\s+(?:pass)?code|otp(?:\s+code)?|2fa\s+code|mfa\s+code"
        r"|verification\s+code|security\s+code|auth(?:entication)?\s+code|login\s+code"
        # codes that open a door, a gate, an alarm panel or a safe
        r"|(?:door|gate|alarm|garage|safe|locker|lockbox|key\s?box|keypad|entry|entrance"
        r"|access|intercom|buzzer)\s+code"
        r"|(?:lock|safe|locker|padlock|bike\s+lock)\s+(?:combination|combo)",
    ),
    (_CVV, r"cvv2?|cvc2?|csc"),
    (
        _TOKEN,
        r"(?:api|access|secret|private|license|licence|ssh|signing|encryption|auth|openai"
        r"|anthropic|aws|stripe|github|gitlab|slack|deploy)[\s_\-]?keys?|apikeys?"
        r"|(?:(?:access|auth|api|bearer|refresh|session|bot|personal\s+access|github|gitlab"
        r"|slack|npm|pypi|hugging\s?face|hf)[\s_\-]?)?tokens?"
        r"|client[\s_\-]?secrets?|secret(?:\s+(?:key|code|phrase|word))?|credentials?"
        # a bare "key" before a value that looks like one ("with the key 7c1e…:fx")
        r"|(?:deepl|mapbox|sendgrid|twilio|mailgun|google|gcp|azure|firebase)[\s_\-]?keys?"
        r"|(?<=the\s)key(?=\s+[A-Za-z0-9])",
    ),
)
_ZH_CUES = (
    (_CODE, r"短信验证码|验证码|校验码|动态码|动态口令|门禁码|开门码|门锁码|保险柜码|保险箱码"),
    (_CVV, r"安全码"),
    (_PIN, r"PIN码|pin码"),
    (_PASSWORD, r"支付密码|登录密码|登陆密码|开机密码|密码|口令"),
    (_TOKEN, r"私钥|密钥|秘钥|访问令牌|令牌"),
)
# Chinese first, so "PIN码" is one cue rather than the English "PIN" plus "码".
_CUE_RE = re.compile(
    "|".join(
        [rf"(?P<zh{i}>{pat})" for i, (_, pat) in enumerate(_ZH_CUES)]
        + [
            rf"(?<![A-Za-z0-9])(?P<en{i}>{pat})(?![A-Za-z0-9])"
            for i, (_, pat) in enumerate(_EN_CUES)
        ]
    ),
    re.IGNORECASE,
)

# Connectors, tried in order right after a cue. "strong" ones state that a value
# follows; "weak" (mere adjacency) demands a value that looks like a secret.
_STRONG_CONNECTORS = (
    re.compile(r"[ \t]*(?:=>|->|:=|[:=])(?!//)[ \t]*"),
    re.compile(
        r"[ \t]*(?:也是|还是|就是|都是|一直是|是|为|為|即"
        # a setting verb, then 成/为 ("设成", "定为", "我定成了", "弄成", "设了个")
        r"|(?:我|我们|已经|已|刚|都)?(?:设置|设|定|改|换|变|弄|搞|调|重置|重设)(?:成|为|為|作)了?"
        r"|(?:我|我们|已经|已|刚)?(?:设|定|改|换|弄|搞)了个)[ \t]*:?[ \t]*"
    ),
    re.compile(
        r"(?i)(?:'s|,?[ \t]+(?:which|that)[ \t]+(?:is|was|'s)"
        r"|[ \t]+(?:is[ \t]+going[ \t]+to[ \t]+be|(?:will|would|should)[ \t]+be|has[ \t]+been"
        r"|is|was|are|were|'s))"
        r"(?:[ \t]+(?:now|still|currently|actually|just|literally|simply|always))?"
        r"(?:[ \t]+(?:set|changed|reset|updated)[ \t]+to)?(?:[ \t]*:[ \t]*|[ \t]+)"
    ),
)
#: The English copula ("is", "will be", "'s"): "the password is stronger now" and "will be
#: emailed to you" say something about the password. A plain lower-case word after it is
#: the password ("my password is swordfish", "… sunflower for the router") unless a word
#: that continues a description follows it, or it is a participle with more words after it.
_COPULA = _STRONG_CONNECTORS[2]
_PARTICIPLE = re.compile(r"(?i)^[a-z]{2,}ed$")
_MORE_WORDS = re.compile(r"[ \t]+[A-Za-z]")
_DESCRIPTION_GOES_ON = re.compile(
    r"(?i)[ \t]+(?:than|to|by|via|now|soon|again|too|enough|every|each|after|before|when|once"
    r"|and|or)(?![A-Za-z0-9])")
# "password for the staging db is X": a short qualifier, then a strong connector.
_QUALIFIER = re.compile(
    r"(?i)[ \t]+(?:for|of|on|to|at)[ \t]+(?:(?:the|my|our|your|this|that)[ \t]+)?"
    r"[\w.@\-]+(?:[ \t]+[\w.@\-]+){0,2}?(?=[ \t]*(?:[:=](?!//)|(?:is|was|are)[ \t]))"
)
_TO_CONNECTOR = re.compile(r"(?i)[ \t]+(?:(?:set|changed|reset|updated)[ \t]+)?to[ \t]+")
# English needs a space ("pw hunter2"); Chinese often writes none ("密码abc123").
_WEAK_CONNECTOR = {"en": re.compile(r"[ \t]+"), "zh": re.compile(r"[ \t]*")}

_VALUE_RE = re.compile(r"[!-~\u00a1-\u024f]+")
_QUOTED_RE = re.compile(r"([\"'`])([^\"'`\n]{1,200})\1")
_URL_VALUE = re.compile(r"(?i)^[a-z][a-z0-9+.\-]*://[^@\s]*$")
_PLACEHOLDER = re.compile(r"^(?:[*xX•·#?.\-_]+|\.\.\.|…+|%s|\{\}|\$\w+|\$\{[^}]*\})$")

# Words that follow "password is" in sentences that state no password.
_STOPWORDS = frozenset(
    """
    a an the my your our his her their its this that these those it i you we they he she me
    us them not no none never still also too very so same different in on at to for of with
    without from by into about and or but if when what which where how why who whom whose
    something anything nothing everything stored saved kept written hidden secret secure
    safe strong weak long short wrong right correct incorrect invalid valid expired expiring
    changed reset required needed missing empty blank set updated encrypted hashed rotated
    revoked compromised leaked lost forgotten easy hard simple complicated complex fine ok
    okay good bad new old unknown below above here there now again being been only just
    sensitive private public confidential yes managed handled generated random unique
    protected shared working broken locked disabled enabled active inactive available
    unavailable case optional mandatory attached included enclosed inside somewhere
    elsewhere pending sent coming redacted null nil n/a na tbd todo unset undefined
    placeholder example sample dummy fake test testing str bool int bytes string true false
    likely probably definitely really actually currently over under less more least most
    enough around approximately exactly
    """.split()
)
# Dates, times, versions and years: what follows "password" when nothing secret does
# ("password 2026 policy", "token v2.1").
_BENIGN_VALUE = re.compile(
    r"^(?:\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?|\d{1,2}:\d{2}(?::\d{2})?"
    r"|v?\d+(?:\.\d+){1,3}(?:-[\w.]+)?|(?:19|20)\d{2})$"
)
_MIN_LEN = {_PASSWORD: 4, _PIN: 4, _CODE: 4, _CVV: 3, _TOKEN: 6}


# Digits are often spoken as Chinese numerals ("支付密码幺三五七九零": 幺 is the "one" of
# read-out numbers). A run of at least four, with at least one numeral, is a value.
_ZH_DIGITS = str.maketrans("零〇一二三四五六七八九幺两", "0012345678912")
_ZH_NUMERAL_RUN = re.compile(r"[0-9零〇一二三四五六七八九幺两]{4,}")


# ... and in English ("my PIN is four eight two one", "twenty four sixty eight"): a run of
# at least three number words is a value; it is judged as the digits it reads as.
_EN_NUMBER_WORDS = {
    **{w: str(i) for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen".split())},
    "oh": "0", "o": "0",
    **{w: str(i + 2) for i, w in enumerate(
        "twenty thirty forty fifty sixty seventy eighty ninety".split())},
}
_EN_NUMERAL_RUN = re.compile(
    r"(?i)(?:(?:" + "|".join(sorted(_EN_NUMBER_WORDS, key=len, reverse=True))
    + r")(?![A-Za-z])[ \t,\-]*){3,}"
)
_TENS = frozenset("twenty thirty forty fifty sixty seventy eighty ninety".split())


def _spoken_digits(value: str) -> str | None:
    """The digits a run of English number words reads as, or None if it is not one."""
    words = re.findall(r"[a-z]+", value.lower())
    if len(words) < 3 or any(w not in _EN_NUMBER_WORDS for w in words):
        return None
    out = []
    for i, word in enumerate(words):
        digits = _EN_NUMBER_WORDS[word]
        units = words[i + 1] if i + 1 < len(words) else ""
        if word in _TENS and not (units in _EN_NUMBER_WORDS and len(_EN_NUMBER_WORDS[units]) == 1
                                  and units not in ("zero", "oh", "o")):
            digits += "0"          # "twenty" alone; "twenty four" writes its "4" next
        out.append(digits)
    return "".join(out)


def _ascii_digits(value: str) -> str:
    """The value with Chinese numerals and English number words read as digits, for
    judging what it looks like."""
    return _spoken_digits(value) or value.translate(_ZH_DIGITS)


def _extract_value(text: str, pos: int, connector: str) -> tuple[int, int] | None:
    quoted = _QUOTED_RE.match(text, pos)
    if quoted:
        return quoted.span(2)
    numerals = _ZH_NUMERAL_RUN.match(text, pos)
    if numerals and not numerals.group().isascii():
        return numerals.span()
    spoken = _EN_NUMERAL_RUN.match(text, pos)
    if spoken:
        end = spoken.end()
        while text[end - 1] in " \t,-":
            end -= 1
        return spoken.start(), end
    m = _VALUE_RE.match(text, pos)
    if not m:
        return None
    start, end = m.span()
    if "=" in connector:
        # key=value inside a URL query or a connection string ends at & or ;
        cut = re.search(r"[&;]", text[start:end])
        if cut:
            end = start + cut.start()
    while start < end and text[start] in _OPENING:
        start += 1
    while end > start and text[end - 1] in _CLOSING + ".,;:":
        end -= 1
    return (start, end) if end > start else None


# Code, not a value: "token = next(it)", "password = self.config.password".
_CODE_REFERENCE = re.compile(r"^[A-Za-z_][\w.]*[\[(]|^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")


def _value_ok(value: str, family: str, strength: str) -> bool:
    """Is ``value`` plausibly the secret the cue announced?

    ``strength`` is "strong" (": ", "=", "is", "是"), "to" or "weak" (adjacency).
    """
    if len(value) < _MIN_LEN[family] or _CODE_REFERENCE.match(value):
        return False
    low = value.lower()
    if low in _STOPWORDS or _PLACEHOLDER.match(value) or is_templated_secret(value):
        return False
    if _URL_VALUE.match(value):
        return False  # "token endpoint: https://…" names a place, not a secret
    if family == _PIN:
        return value.isdigit() and len(value) <= 12
    if family == _CVV:
        return value.isdigit() and len(value) <= 4
    if family == _CODE:  # "A7K2Q9", "4417", a combination "12-34-56"
        bare = value.replace("-", "").strip("#*")    # keypads open or end a code with # or *
        return bare.isalnum() and _has_digit(bare) and len(bare) <= 10
    if family == _TOKEN:
        if value.isdigit():
            return len(value) >= 10  # "max tokens: 4096" is a budget, not a token
        if strength != "strong" and _BENIGN_VALUE.match(value):
            return False
        # Issued tokens and keys carry digits; a long mixed-case run may not.
        return _has_digit(value) or (len(value) >= 12 and _looks_secret(value))
    # password
    if strength == "strong":
        return True
    return _looks_secret(value) and not _BENIGN_VALUE.match(value)


def _scan_words(text: str) -> Iterator[SecretFinding]:
    for cue in _CUE_RE.finditer(text):
        group = cue.lastgroup or ""
        lang = group[:2]
        families = _EN_CUES if lang == "en" else _ZH_CUES
        family = families[int(group[2:])][0]
        cue_text = cue.group(0)
        # A bare lower-case "pin" ("pin the version") needs an explicit connector.
        weak_ok = not (family == _PIN and cue_text == cue_text.lower() and lang == "en")
        attempts: list[tuple[str, re.Match[str] | None]] = []
        pos = cue.end()
        at = [pos]
        qualifier = _QUALIFIER.match(text, pos)
        if qualifier:
            at.append(qualifier.end())
        for start in at:
            for connector in _STRONG_CONNECTORS:
                strength = "copula" if connector is _COPULA else "strong"
                attempts.append((strength, connector.match(text, start)))
        attempts.append(("to", _TO_CONNECTOR.match(text, pos)))
        if weak_ok:
            attempts.append(("weak", _WEAK_CONNECTOR[lang].match(text, pos)))
        found = _first_value(text, attempts, family, f"words:{lang}")
        if found is not None:
            yield found


def _first_value(text: str, attempts: Iterable[tuple[str, re.Match[str] | None]],
                 family: str, source: str) -> SecretFinding | None:
    """The first value a matched connector introduces that looks like a ``family``
    secret at that connector's strength."""
    for strength, connector_match in attempts:
        if connector_match is None:
            continue
        span = _extract_value(text, connector_match.end(), connector_match.group(0))
        if span is None:
            continue
        value = _ascii_digits(text[span[0] : span[1]])
        if strength == "copula":
            if not _looks_secret(value) and (
                    _DESCRIPTION_GOES_ON.match(text, span[1])
                    or (_PARTICIPLE.match(value) and _MORE_WORDS.match(text, span[1]))):
                continue
            strength = "strong"
        if _value_ok(value, family, strength):
            kind = "password" if family in (_PASSWORD, _PIN, _CODE, _CVV) else "token"
            return SecretFinding(kind, span[0], span[1], source)
    return None


# A secret named by a cue and then given by reference later in the clause: "rotate the
# DB password, the new one is Gr33n-Lantern!42", "changed my PIN – new one: 4821",
# "把测试库密码换了，新的是 Abc!2345". The pronoun stands for the password as surely as
# "the new password is" would, so the value after it is the secret. Such a sentence often
# says something harmless instead ("the new one is stored in 1Password", "the new one
# is stricter"), so the value must look like a secret whatever connector introduced it.
_ANAPHOR = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:(?:the|its|my|our|your|a)[ \t]+)?"
    r"(?:new|old|current|temporary|temp|updated|actual|real|correct|right|proper)"
    r"[ \t]+(?:one|value)(?![A-Za-z0-9])"
    r"|(?<![A-Za-z0-9])(?:it'?s|it[ \t]+is)[ \t]+now(?![A-Za-z0-9])"
    r"|(?<![A-Za-z0-9])(?:changed|set|reset|updated|switched)[ \t]+it(?=[ \t]+to[ \t])"
    r"|(?<![更最重创刷])新(?:的|密码|口令)?(?:那个|那串)?(?=[ \t]*(?:是|为|為|:))"
    r"|现在(?=[ \t]*(?:是|为|為)[ \t]*[!-~])"
)
# How far after the cue the reference may come, within its clause.
_ANAPHOR_REACH = 80
_CLAUSE_END = re.compile(r"[.!?](?=\s|$)|[。！？\n]")
_SPACE = re.compile(r"\s*")


def _scan_anaphora(text: str) -> Iterator[SecretFinding]:
    for cue in _CUE_RE.finditer(text):
        group = cue.lastgroup or ""
        lang = group[:2]
        family = (_EN_CUES if lang == "en" else _ZH_CUES)[int(group[2:])][0]
        if family == _PIN and lang == "en" and cue.group(0) == cue.group(0).lower():
            continue  # "pin the version, the new one is 2.3" is not about a PIN
        end = min(len(text), cue.end() + _ANAPHOR_REACH)
        stop = _CLAUSE_END.search(text, cue.end(), end)
        ref = _ANAPHOR.search(text, cue.end(), stop.start() if stop else end)
        if ref is None and stop is not None:
            # "I changed my PIN. The new one is 4821.": the next sentence may open with
            # the reference; only its opening words, so a later "new one" about
            # something else is not taken for the secret.
            opening = _SPACE.match(text, stop.end()).end()
            ref = _ANAPHOR.match(text, opening, end)
        if ref is None:
            continue
        pos = ref.end()
        # Whatever the connector, the value must look like a secret as after a weak one.
        connectors = [*_STRONG_CONNECTORS, _TO_CONNECTOR, _WEAK_CONNECTOR[lang]]  # "it's now X"
        found = _first_value(text, [("weak", c.match(text, pos)) for c in connectors], family,
                             f"words:{lang}:reference")
        if found is not None:
            yield found


# A login given as a pair: "admin login is admin / Rout3r#Reset2026", "creds: deploy:Hx9!q",
# "登录信息：root / Abc!2345". No password word precedes the secret, only the word for the
# pair; the second half must look like a secret ("login: admin/admin" is a default, and
# "sign-in: Google / Okta" names providers), and a URL never counts as a pair.
_LOGIN_CUE = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:log-?in|log-?on|sign-?in|creds|credentials?|account)"
    r"(?:[ \t]+(?:details|info|data))?(?![A-Za-z0-9])|(?:登录|登陆|账号|帐号|账户)(?:信息)?"
)
_SPACE_GAP = re.compile(r"[ \t]+")
_PAIR_USER = re.compile(r"[\w.@+\-]{1,64}[ \t]*(?:/|\||:(?!//))[ \t]*")


# ... or as the means of logging in: "log in with root / Qw3rty!88", "用 root / Qw3rty!88 登服务器".
_LOGIN_WITH = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:log-?\s*in|sign-?\s*in|ssh|connect|auth(?:enticate)?)(?:[ \t]+to"
    r"[ \t]+\S+)?[ \t]+(?:with|using|as)[ \t]+|(?:用|拿|使用)[ \t]*"
)
_LOGIN_AFTER = re.compile(r"[ \t]*(?:登录|登陆|登|连|ssh|进)", re.IGNORECASE)


def _mixed(secret: str) -> bool:
    """A digit and a symbol: what a password half of a pair has and a provider name lacks."""
    return _has_digit(secret) and any(c in _SECRET_SYMBOLS for c in secret)


def _login_pair_at(text: str, pos: int) -> SecretFinding | None:
    """The password half of a "user / password" pair starting at ``pos``."""
    user = _PAIR_USER.match(text, pos)
    if user is None:
        return None
    name = user.group(0).rstrip(" \t/|:").lower()
    found = _first_value(text, [("weak", user)], _PASSWORD, "words:login_pair")
    # "login is at /admin/Login" is a path, not a pair
    if found is None or name in _STOPWORDS or "/" in text[found.start:found.end]:
        return None
    return found


def _scan_login_pairs(text: str) -> Iterator[SecretFinding]:
    for cue in _LOGIN_CUE.finditer(text):
        for connector in _STRONG_CONNECTORS:
            joined = connector.match(text, cue.end())
            if joined is not None:
                pair = _login_pair_at(text, joined.end())
                if pair is not None:
                    yield pair
                break
        else:
            # "portal login ben.okafor / Gl0bex!Q4-close": the pair right after the word,
            # its second half with a digit and a symbol ("login Google / Okta" names two).
            gap = _SPACE_GAP.match(text, cue.end())
            pair = _login_pair_at(text, gap.end()) if gap is not None else None
            if pair is not None and _mixed(text[pair.start:pair.end]):
                yield pair
    for means in _LOGIN_WITH.finditer(text):
        pair = _login_pair_at(text, means.end())
        if pair is None:
            continue
        # Chinese names the act after the pair ("用 root / … 登服务器"; "用 npm / pnpm" does
        # not); "sign in with Google / GitHub" names providers, so the second half needs a
        # digit and a symbol here.
        act = means.group(0).strip()[:1].isascii() or _LOGIN_AFTER.match(text, pair.end)
        if act and _mixed(text[pair.start:pair.end]):
            yield pair


# Shell and dotenv assignments ("export OPENAI_API_KEY=…", "DB_PASSWORD: …"): the
# upper-case name ends in a secret word. Upper case only, so "primary key" prose and
# lower-case code identifiers stay with the cue and keyword detectors.
_ENV_ASSIGN = re.compile(
    r"(?<![A-Za-z0-9_])(?:(?:[A-Z][A-Z0-9]*_)*(?:[A-Z]{2,5}(?=PASS|PWD|TOKEN|SECRET))?"
    r"(?P<word>(?:API|SECRET|ACCESS|PRIVATE|AUTH|CLIENT|SIGNING|ENCRYPTION)_KEY|TOKEN|SECRET"
    r"|PASSWORD|PASSWD|PWD|PASS|PASSPHRASE|CREDENTIALS?)|(?P<bare>KEY))"
    r"[ \t]*[=:](?!//)[ \t]*"
)


def _scan_env_assignments(text: str) -> Iterator[SecretFinding]:
    for m in _ENV_ASSIGN.finditer(text):
        span = _extract_value(text, m.end(), "=")
        if span is None:
            continue
        value = text[span[0] : span[1]]
        word = m.group("word") or m.group("bare")
        family = _PASSWORD if word.startswith("PASS") or word == "PWD" else _TOKEN
        if is_prefixed_with_dollar_sign(value) or not _value_ok(value, family, "strong"):
            continue
        kind = "password" if family == _PASSWORD else "token"
        yield SecretFinding(kind, span[0], span[1], "words:env")


# ----------------------------------------------- numbers and phrases given by name

# A card or an identity document named before its number: "card number 4111 1111 1111
# 1112", "我的银行卡号 6222 0212 3456 7890 123", "passport: X12345678", "身份证号是
# 11010119900307123X". The name says what the number is, so no check digit is needed (a
# mistyped or made-up one is still not something to keep); without the name only the
# checksummed detectors above speak.
_CARD_CUE = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:(?:credit|debit|bank|payment|visa|mastercard|amex)[ \t]+)?"
    r"card[ \t]*(?:number|no\.?|num|#)|(?:credit|debit)[ \t]+card(?![A-Za-z0-9])"
    r"|(?:银行卡|信用卡|储蓄卡|借记卡|工资卡)(?:卡号|号码|号)?|卡号"
)
_CARD_DIGITS = re.compile(r"\d(?:[ \-]?\d){11,18}(?![0-9])")
_ID_CUE = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:(?:passport|driver'?s?[ \t]+licen[cs]e|driving[ \t]+licen[cs]e"
    r"|national[ \t]+id|id[ \t]+card|tax(?:payer)?[ \t]+id)(?:[ \t]*(?:number|no\.?|num|#))?"
    r"|(?:national[ \t]+insurance|ni|social[ \t]+insurance|tax(?:payer)?[ \t]+identification"
    r"|tax)[ \t]*(?:number|no\.?|num|#))(?![A-Za-z0-9])"
    r"|身份证(?:号码|号)?|护照(?:号码|号)?|驾驶证(?:号码|号)?|驾照(?:号码|号)?|社保(?:卡)?号(?:码)?"
    r"|医保卡号|港澳通行证(?:号码|号)?"
)
_ID_VALUE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9\- ]{4,22}[A-Za-z0-9])(?![A-Za-z0-9])")


def _named(text: str, cue_re: re.Pattern[str], value_re: re.Pattern[str], kind: str,
           detector: str, accept: Callable[[str], bool] = bool) -> Iterator[SecretFinding]:
    """Values of ``value_re`` right after a ``cue_re`` and a connector (or none at all)."""
    for cue in cue_re.finditer(text):
        for connector in (*_STRONG_CONNECTORS, _WEAK_CONNECTOR["zh"]):
            joined = connector.match(text, cue.end())
            value = joined and value_re.match(text, joined.end())
            if value and accept(value.group(0)):
                yield SecretFinding(kind, value.start(), value.end(), detector)
                break


def _scan_named_numbers(text: str) -> Iterator[SecretFinding]:
    yield from _named(text, _CARD_CUE, _CARD_DIGITS, "card_number", "words:card")
    yield from _named(text, _ID_CUE, _ID_VALUE, "national_id", "words:id",
                      lambda v: sum(c.isdigit() for c in v) >= 5)


# A password on a command line: "mysql -u root -pS3cret", "--password=…", "sshpass -p
# '…'", "curl -u admin:…". Only the forms whose flag takes the password itself; a bare
# "-p" (prompt for it) or a "$VARIABLE" is nothing to keep.
_COMMAND_PASSWORD = re.compile(
    r"(?<![\w-])(?:mysql|mysqldump|mysqladmin|mariadb|mysqlsh)\b[^\n|;&]*?[ \t]-p(?P<glued>[^\s]+)"
    r"|(?<![\w-])--(?:password|passwd|pass)(?:=|[ \t]+)(?P<long>[^\s]+)"
    r"|(?<![\w-])sshpass[ \t]+-p[ \t]*(?P<sshpass>[^\s]+)"
    r"|(?<![\w-])(?:curl|wget|http|httpie)\b[^\n|;&]*?[ \t](?:-u|--user)[ \t]*"
    r"[^\s:'\"]+:(?P<user>[^\s]+)"
)


def _scan_command_passwords(text: str) -> Iterator[SecretFinding]:
    for m in _COMMAND_PASSWORD.finditer(text):
        start, end = _trim(text, *m.span(m.lastgroup or 0))
        value = text[start:end]
        if is_prefixed_with_dollar_sign(value) or not _value_ok(value, _PASSWORD, "strong"):
            continue
        yield SecretFinding("password", start, end, "words:command")


# A wallet's recovery phrase: "seed phrase: witch collapse practice …", "助记词：…". Twelve
# or more plain words after its name are the key to the wallet.
_SEED_CUE = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:(?:seed|recovery|backup|secret|mnemonic|wallet)[ \t]+"
    r"(?:phrase|words)|mnemonic)(?![A-Za-z0-9])|助记词|恢复短语"
)
_SEED_WORDS = re.compile(r"[a-z]{3,8}(?:[ \t,]+[a-z]{3,8}){11,23}(?![A-Za-z])")


def _scan_seed_phrases(text: str) -> Iterator[SecretFinding]:
    yield from _named(text, _SEED_CUE, _SEED_WORDS, "private_key", "words:seed")


# ------------------------------------------------------------ high-entropy tokens

# "=" is left out of the run on purpose: it is padding at the end of base64 and an
# assignment everywhere else ("KEY=…"), so it splits runs rather than joining them.
_B64_RUN = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{20,}(?![A-Za-z0-9+/_\-])")
_URLISH = re.compile(
    r"(?i)(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]*://[!-~]+|(?<![a-z0-9.])www\.[!-~]+"
    r"|[a-z0-9.+\-_]+@[a-z0-9\-]+\.[a-z0-9.\-]+"
    # SSH public keys are long base64 but public by design.
    r"|(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)"
    r"[ \t]+AAAA[A-Za-z0-9+/=]+"
)
_HEX_LABEL = re.compile(
    r"(?i)(?:key|token|secret|password|passwd|credential|密钥|秘钥|令牌|密码)\W{0,3}(?:\w+\W+){0,2}$"
)
_HEX_CHARS = frozenset("0123456789abcdefABCDEF-")
_CHUNK_SEPARATORS = re.compile(r"[/_\-+]")


def _class_changes(chunk: str) -> float:
    """Share of neighbouring characters that switch lower/upper/digit class.

    Upper-to-lower is not counted: it is how a capitalised word starts. Random
    base62 switches at about 0.45 on this measure; camelCase identifiers
    ("getUserProfileById2024Handler") stay near 0.2.
    """
    changes = 0
    for a, b in zip(chunk, chunk[1:], strict=False):
        if a.isupper() and b.islower():
            continue
        if (a.islower(), a.isupper(), a.isdigit()) != (b.islower(), b.isupper(), b.isdigit()):
            changes += 1
    return changes / max(1, len(chunk) - 1)


def _random_looking(token: str) -> bool:
    """Looks like generated output, not a name built from words.

    Branch names, pod names and package names are made of short parts joined by
    "-", "/" or "_"; generated secrets have long unbroken random stretches (a
    separator occurs about once in 16 characters of base64). So the longest part
    must be at least 12 characters and interleave classes like random text.
    """
    longest = max(_CHUNK_SEPARATORS.split(token), key=len)
    if len(longest) < 12:
        return False
    return _class_changes(longest) >= 0.3


def _is_encoded_prose(token: str) -> bool:
    """Base64 of an ordinary sentence ("VGhpcyBpcyB0aGUgd2F5" is "This is the way")."""
    padded = token + "=" * (-len(token) % 4)
    try:
        decoded = base64.b64decode(padded, altchars=b"-_" if "-" in token or "_" in token else None)
        plain = decoded.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    return " " in plain and plain.isprintable()


def _scan_entropy(text: str) -> Iterator[SecretFinding]:
    masked = list(text)
    for m in _URLISH.finditer(text):
        masked[m.start() : m.end()] = " " * (m.end() - m.start())
    scan = "".join(masked)
    for m in _B64_RUN.finditer(scan):
        token, start = m.group(0), m.start()
        if not (_has_digit(token) and _has_alpha(token)):
            continue
        if is_sequential_string(token) or is_potential_uuid(token):
            continue
        if set(token) <= _HEX_CHARS:
            # A bare hex string is usually a commit or content hash; only flag it
            # when a key/token label sits right before it.
            label = _HEX_LABEL.search(text[max(0, start - 40) : start])
            if label and _HEX_PLUGIN.calculate_shannon_entropy(token) > _HEX_PLUGIN.entropy_limit:
                yield SecretFinding(
                    "high_entropy", start, m.end(), "detect_secrets:HexHighEntropyString"
                )
            continue
        # detect-secrets' limit (4.5 bits) is unreachable below ~23 characters, so
        # scale it with length: log2(n) is the ceiling for an n-character string.
        limit = min(_BASE64_PLUGIN.entropy_limit, math.log2(len(token)) - 0.8)
        if _BASE64_PLUGIN.calculate_shannon_entropy(token) <= limit:
            continue
        if not _random_looking(token) or _is_encoded_prose(token):
            continue
        yield SecretFinding(
            "high_entropy", start, m.end(), "detect_secrets:Base64HighEntropyString"
        )


# ---------------------------------------------------------------------- entry points

# Highest priority first: a finding inside the span of an earlier one is dropped.
_SCANNERS: tuple[Callable[[str], Iterable[SecretFinding]], ...] = (
    _scan_pem,
    _scan_detect_secrets,
    _scan_prefixes,
    _scan_connection_strings,
    _scan_ibans,
    _scan_national_ids,
    _scan_cards,
    _scan_named_numbers,
    _scan_seed_phrases,
    _scan_words,
    _scan_anaphora,
    _scan_login_pairs,
    _scan_env_assignments,
    _scan_command_passwords,
    _scan_entropy,
)


def find_secrets(text: str) -> list[SecretFinding]:
    """Every secret in ``text``, sorted by position.

    Deterministic and side-effect free. Overlapping hits are resolved in favour of
    the more specific detector (vendor format over word cue over entropy), so each
    secret is reported once; the gate only needs to know whether the list is empty
    and, for the audit trail, which kinds and detectors fired.
    """
    if not text:
        return []
    folded = _fold(text)
    kept: list[SecretFinding] = []
    for scanner in _SCANNERS:
        for finding in scanner(folded):
            if any(k.start <= finding.start and finding.end <= k.end for k in kept):
                continue
            if finding.kind == "high_entropy" and any(
                k.start < finding.end and finding.start < k.end for k in kept
            ):
                continue
            kept.append(finding)
    return sorted(kept, key=lambda f: (f.start, f.end, f.kind))


# Keys under which any non-empty scalar is a secret, normalised (lower case, no
# separators). A proposal value like {"password": "swordfish"} hides the cue in
# the structure rather than the text.
_SECRET_KEYS = frozenset(
    {
        "password",
        "passwd",
        "pwd",
        "pw",
        "passphrase",
        "passcode",
        "pin",
        "pincode",
        "secret",
        "clientsecret",
        "secretkey",
        "apikey",
        "apitoken",
        "accesstoken",
        "authtoken",
        "refreshtoken",
        "bearertoken",
        "token",
        "privatekey",
        "accesskey",
        "secretaccesskey",
        "otp",
        "cvv",
        "cvc",
        "cardnumber",
        "密码",
        "口令",
        "密钥",
        "秘钥",
        "私钥",
        "验证码",
        "令牌",
    }
)


def _secret_key_kind(key: str) -> str | None:
    norm = re.sub(r"[\s_\-.]", "", key).lower()
    if norm not in _SECRET_KEYS:
        return None
    if norm in ("cardnumber",):
        return "card_number"
    if norm in ("privatekey", "私钥"):
        return "private_key"
    if "pass" in norm or norm in (
        "pwd",
        "pw",
        "pin",
        "pincode",
        "otp",
        "cvv",
        "cvc",
        "密码",
        "口令",
        "验证码",
    ):
        return "password"
    return "token"


def find_secrets_in_value(value: object) -> list[SecretFinding]:
    """Secrets anywhere in a JSON value: string leaves, integers and dict keys.

    Offsets are relative to the leaf (or key, or ``str(int)``) they were found in.
    Integers are scanned because a card number survives as a JSON number. A
    non-empty scalar directly under a secret-named key ("password", "api_key",
    "密码") is reported whole, since its key already says what it is.
    """
    found: list[SecretFinding] = []
    stack: list[object] = [value]
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.extend(find_secrets(item))
        elif isinstance(item, bool) or item is None or isinstance(item, float):
            continue
        elif isinstance(item, int):
            found.extend(find_secrets(str(item)))
        elif isinstance(item, dict):
            if id(item) in seen:
                continue
            seen.add(id(item))
            for key, child in item.items():
                if isinstance(key, str):
                    found.extend(find_secrets(key))
                    kind = _secret_key_kind(key)
                    leaf = child if isinstance(child, str) else None
                    if isinstance(child, int) and not isinstance(child, bool):
                        leaf = str(child)
                    if kind and leaf and leaf.strip():
                        found.append(SecretFinding(kind, 0, len(leaf), "walker:key"))
                        continue
                stack.append(child)
        elif isinstance(item, list | tuple):
            if id(item) in seen:
                continue
            seen.add(id(item))
            stack.extend(reversed(item))
    return found
