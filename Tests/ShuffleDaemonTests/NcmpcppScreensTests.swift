import Foundation
import Glibc
import ShuffleTestSupport
import Testing

/// ncmpcpp, the terminal client people run over ssh, under tmux against the daemon: its playlist, browser
/// and media-library screens show what the stick holds.
@Suite(
    .serialized,
    .enabled(
        if: DaemonHarness.canMount && TestLibrary.isAvailable && PacedSink.isAvailable
            && FileManager.default.fileExists(atPath: "/usr/bin/ncmpcpp")
            && FileManager.default.fileExists(atPath: "/usr/bin/tmux"),
        "needs root (mount), lame, pulseaudio, ncmpcpp and tmux"))
struct NcmpcppScreensTests {
    /// One tmux server of its own (`-L`), so nothing else on the machine is touched.
    final class Terminal {
        let server: String
        init(command: String, home: URL) throws {
            server = "shufflebox-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            // Through bash (dash takes no descriptor above 9), which closes every inherited descriptor and hands tmux /dev/null: the tmux
            // server outlives the call, and a pipe it inherited would keep `Run.program` waiting for the end
            // of its output (Foundation's Process passes its pipes down beyond 0-2 too).
            let closeAll = "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\"; done 2>/dev/null"
            let result = try Run.program(
                "/bin/bash",
                [
                    "-c", "\(closeAll); exec \"$@\" </dev/null >/dev/null 2>&1", "bash", "/usr/bin/env",
                    "HOME=\(home.path)",
                    "TERM=xterm-256color", "LANG=C.UTF-8", "/usr/bin/tmux", "-L", server, "new-session", "-d", "-s",
                    "main", "-x", "160", "-y", "45", command,
                ])
            guard result.status == 0 else { throw HarnessError("tmux did not start: \(result.stderr)") }
        }
        deinit {
            // The pane's process inherits the test runner's blocked signals, so `kill-server`'s SIGHUP does
            // not end it (and the server waits for it): SIGKILL it, then the server ends with its session.
            let panes =
                (try? Run.program("/usr/bin/tmux", ["-L", server, "list-panes", "-a", "-F", "#{pane_pid}"]))?
                .stdout ?? ""
            for pid in panes.split(separator: "\n").compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
            _ = try? Run.program("/usr/bin/tmux", ["-L", server, "kill-server"])
        }

        /// What the screen shows now.
        func screen() -> String {
            (try? Run.program("/usr/bin/tmux", ["-L", server, "capture-pane", "-p", "-t", "main"]).stdout) ?? ""
        }

        /// Presses `key` (tmux key names: `2`, `Tab`, `Enter`).
        func press(_ key: String) {
            _ = try? Run.program("/usr/bin/tmux", ["-L", server, "send-keys", "-t", "main", key])
        }

        /// Waits until the screen contains every one of `texts`; the last screen when it does not.
        func waitFor(_ texts: [String], seconds: Double = 10) -> (Bool, String) {
            var last = ""
            let found = DaemonHarness.wait(seconds: seconds) {
                last = screen()
                return texts.allSatisfy { last.contains($0) }
            }
            return (found, last)
        }
    }

    @Test func thePlaylistBrowserAndMediaLibraryScreensShowTheStick() throws {
        let (daemon, sink, _) = try DaemonHarness.playingOnPacedSink()
        defer { try? sink.stop() }
        #expect(DaemonHarness.wait(seconds: 10) { daemon.queueIsComplete(tracks: 6) }, "\(daemon.log)")
        let client = try MPDConnection(socket: daemon.socket)
        let songs = try client.pairs("playlistinfo")
        let titles = Set(songs.filter { $0.0 == "Title" }.map(\.1))
        let artists = Set(songs.filter { $0.0 == "Artist" }.map(\.1))
        let folders = try client.pairs("lsinfo").filter { $0.0 == "directory" }.map(\.1)
        #expect(titles.count > 1 && !artists.isEmpty && !folders.isEmpty)

        let terminal = try Terminal(
            command: "/usr/bin/ncmpcpp -h \(daemon.socket)", home: daemon.directory.appending("home"))
        let (playlist, playlistScreen) = terminal.waitFor(["Playlist (6 items"] + Array(titles))
        #expect(playlist, "the playlist screen:\n\(playlistScreen)")

        terminal.press("2")
        let (browser, browserScreen) = terminal.waitFor(["Browse: /"] + folders.map { "[\($0)]" })
        #expect(browser, "the browser:\n\(browserScreen)")

        terminal.press("4")
        let (library, libraryScreen) = terminal.waitFor(["Media library"] + Array(artists))
        #expect(library, "the media library:\n\(libraryScreen)")

        // Back on the playlist: still there, and the daemon is still playing.
        terminal.press("1")
        #expect(terminal.waitFor(["Playlist (6 items"]).0)
        #expect(daemon.state() == "playing")
        #expect(daemon.stop() == 0)
    }
}
