#if Vapor  // the trait that brings in the framework (Package.swift)
import Foundation
import NIOCore
public import NIOHTTP1
public import Vapor
public import Vetted

extension VettedProblem: AbortError {
    /// The problem's status: 413, 408, 415, 401, 400, 422 or 500.
    public var status: HTTPResponseStatus { HTTPResponseStatus(statusCode: details.status) }
    /// The problem's title and detail (what Vapor's own `ErrorMiddleware` shows; ``VettedProblemMiddleware`` sends the whole problem).
    public var reason: String { details.title + ": " + details.detail }
}

extension Response {
    /// `details` as an `application/problem+json` response with its status.
    public convenience init(problem details: ProblemDetails) {
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: ProblemDetails.mediaType)
        self.init(status: HTTPResponseStatus(statusCode: details.status), headers: headers, body: .init(data: Data(details.json)))
    }
}

/// Answers every failure of Vetted's as `application/problem+json`
/// (Vapor's own `ErrorMiddleware` would answer `{"error":true,"reason":…}`), and
/// Vapor's own refusals of a body too large (413) or of a media type no decoder
/// reads (415) in the same shape. Other errors go on to the next error handler.
///
/// ```swift
/// app.middleware.use(VettedProblemMiddleware())  // after ErrorMiddleware, so it sees errors first
/// ```
public struct VettedProblemMiddleware: AsyncMiddleware {
    public init() {}

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            guard let problem = Self.problem(for: error) else { throw error }
            if problem.details.status >= 500 {
                // The server's own defect (a rule declared wrong, a response that breaks its rules): logged as an error.
                request.logger.error("\(problem)")
            }
            return Response(problem: problem.details)
        }
    }

    /// The problem an error stands for: Vetted's, or Vapor's own 413 and 415.
    static func problem(for error: any Error) -> VettedProblem? {
        if let problem = VettedProblem(error) { return problem }
        guard let abort = error as? any AbortError else { return nil }
        switch abort.status {
        case .payloadTooLarge:
            return VettedProblem(VettedError(code: .inputSizeLimitExceeded, message: "the body is over the route's limit"))
        case .unsupportedMediaType:
            return VettedProblem.unsupportedMediaType(nil, expected: ["a media type this route reads"])
        default:
            return nil
        }
    }
}

/// Reads each request body before its route does: at most `maxBytes` (a declared
/// length over it is refused before a byte is read) and within `timeout`, so a
/// sender that trickles cannot hold a connection. Vapor's own collection has no deadline.
///
/// Refusals are ``Vetted/VettedProblem``s: 413 and 408.
public struct VettedBodyMiddleware: AsyncMiddleware {
    public let maxBytes: Int
    public let timeout: Duration

    public init(maxBytes: Int = 1 << 20, timeout: Duration = .seconds(30)) {
        self.maxBytes = maxBytes
        self.timeout = timeout
    }

    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try await VettedBody.collect(request, maxBytes: maxBytes, timeout: timeout)
        return try await next.respond(to: request)
    }
}

/// Collecting a Vapor request body under a cap and a deadline.
enum VettedBody {
    /// Collects the body (Vapor keeps it on the request for the route), or throws 413 / 408.
    static func collect(_ request: Request, maxBytes: Int, timeout: Duration) async throws {
        if let collected = request.body.data {
            // Already read (by Vapor's test harness, or an earlier middleware): the cap still holds.
            guard collected.readableBytes <= maxBytes else {
                throw VettedProblem(
                    VettedError(code: .inputSizeLimitExceeded, message: "the body is \(collected.readableBytes) bytes, over the limit of \(maxBytes)"))
            }
            return
        }
        if let declared = request.headers.first(name: .contentLength).flatMap({ Int($0) }), declared > maxBytes {
            throw VettedProblem(
                VettedError(code: .inputSizeLimitExceeded, message: "the body is declared as \(declared) bytes, over the limit of \(maxBytes)"))
        }
        let future = request.body.collect(max: maxBytes)
        do {
            try await wait(for: future, within: timeout)
        } catch let error as VettedError {
            throw VettedProblem(error)
        } catch let abort as any AbortError where abort.status == .payloadTooLarge {
            throw VettedProblem(VettedError(code: .inputSizeLimitExceeded, message: "the body is over \(maxBytes) bytes"))
        }
    }

    /// Waits for `future`, or throws `deadlineExceeded` once `timeout` passes. (A future
    /// cannot be cancelled: one still running at the deadline ends on its own, within the cap.)
    static func wait(for future: EventLoopFuture<ByteBuffer?>, within timeout: Duration) async throws {
        let loop = future.eventLoop
        let nanoseconds = Int64(clamping: timeout.components.seconds) &* 1_000_000_000 &+ timeout.components.attoseconds / 1_000_000_000
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let once = Once(continuation)
            let timer = loop.scheduleTask(in: .nanoseconds(nanoseconds)) {
                once.resume(.failure(VettedError(code: .deadlineExceeded, message: "the body did not all arrive within \(timeout)")))
            }
            future.whenComplete { result in
                timer.cancel()
                once.resume(result.map { _ in () })
            }
        }
    }

    /// Resumes a continuation once, from whichever of the body and the timer comes first.
    ///
    /// `@unchecked Sendable`: both callers run on the future's event loop (its completion
    /// and a task scheduled on it), one after the other, so `continuation` is never touched at once.
    private final class Once: @unchecked Sendable {
        private var continuation: CheckedContinuation<Void, any Error>?
        init(_ continuation: CheckedContinuation<Void, any Error>) { self.continuation = continuation }
        func resume(_ result: Result<Void, any Error>) {
            continuation?.resume(with: result)
            continuation = nil
        }
    }
}
#endif
