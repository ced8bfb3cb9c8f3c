"""The package's exceptions: every failure is a FusercError."""
import enum
import re


class FusercError(Exception):
    """Something fuserc, a compiled library or its manifest could not do."""


class ManifestError(FusercError):
    """A manifest that this package cannot read (docs/manifest.md)."""


class Status(enum.IntEnum):
    """NAME_status of the generated header (docs/header.md, "Status and errors")."""
    OK = 0
    ERROR_INVALID_ARGUMENT = 1
    ERROR_CUDA = 2
    ERROR_UNSUPPORTED = 3
    ERROR_INDEX_OUT_OF_RANGE = 4


class StatusError(FusercError):
    """A generated function returned a failed status. `status` is a Status
    (or the int, for a code this package does not know), `function` the C
    function and `message` its NAME_last_error() text."""

    def __init__(self, function, status, message):
        try:
            status = Status(status)
            name = status.name
        except ValueError:
            name = "status %d" % status
        super().__init__("%s returned %s: %s" % (function, name, message))
        self.function = function
        self.status = status
        self.message = message


class Diagnostic:
    """One `file:line:col: severity: message` line of fuserc's output."""

    def __init__(self, file, line, column, severity, message):
        self.file, self.line, self.column = file, line, column
        self.severity, self.message = severity, message

    def __repr__(self):
        return "%s:%d:%d: %s: %s" % (self.file, self.line, self.column, self.severity,
                                     self.message)


_DIAGNOSTIC = re.compile(r"^(.+?):(\d+):(\d+): (error|warning|note): (.*)$")


def parse_diagnostics(text):
    """The Diagnostics of fuserc's stderr, in order (carets and source lines
    stay in the exception's text)."""
    out = []
    for line in text.splitlines():
        m = _DIAGNOSTIC.match(line)
        if m:
            out.append(Diagnostic(m.group(1), int(m.group(2)), int(m.group(3)), m.group(4),
                                  m.group(5)))
    return out


class CompileError(FusercError):
    """fuserc refused the input or failed: `exit_code` (1 input error, 2 usage,
    3 toolchain; docs/command-line.md), `output` its stderr, `diagnostics`
    the file:line:col messages in it."""

    def __init__(self, command, exit_code, output):
        super().__init__("fuserc exited with %d:\n%s" % (exit_code, output.rstrip()))
        self.command = command
        self.exit_code = exit_code
        self.output = output
        self.diagnostics = parse_diagnostics(output)
