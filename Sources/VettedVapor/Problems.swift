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
public struct VettedProblemMiddleware: Middleware {
    public init() {}

    // On the request's event loop, without a hop to a task: this runs for every request.
    public func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).flatMapErrorThrowing { error in
            guard let problem = Self.problem(for: error, contentType: request.headers.first(name: .contentType)) else { throw error }
            if problem.details.status >= 500 {
                // The server's own defect (a rule declared wrong, a response that breaks its rules): logged as an error.
                request.logger.error("\(problem)")
            }
            return Response(problem: problem.details)
        }
    }

    /// The problem an error stands for: Vetted's, or Vapor's own 413 and 415.
    static func problem(for error: any Error, contentType: String? = nil) -> VettedProblem? {
        if let problem = VettedProblem(error) { return problem }
        guard let abort = error as? any AbortError else { return nil }
        switch abort.status {
        case .payloadTooLarge:
            return VettedProblem(VettedError(code: .inputSizeLimitExceeded, message: "the body is over the route's limit"))
        case .unsupportedMediaType:
            return VettedProblem.unsupportedMediaType(contentType, expected: [])
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
///
/// With `leavingStreamsUnread`, a body whose media type is a stream of records
/// (`application/x-ndjson`, `application/jsonl`, `application/json-seq`) passes unread, for
/// a route registered with `body: .stream` to read with
/// `Request.decodeElements(of:decoder:onError:maxTotalBytes:timeout:)`, which caps each record
/// and holds each to the deadline. (A `.collect` route that is sent one collects it under
/// Vapor's own cap, without a deadline: register stream routes with `body: .stream`.)
public struct VettedBodyMiddleware: Middleware {
    public let maxBytes: Int
    public let timeout: Duration
    public let leavingStreamsUnread: Bool

    public init(maxBytes: Int = 1 << 20, timeout: Duration = .seconds(30), leavingStreamsUnread: Bool = false) {
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.leavingStreamsUnread = leavingStreamsUnread
    }

    // On the request's event loop, without a hop to a task: this runs for every request.
    public func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        if leavingStreamsUnread, let framing = VettedMediaType.streamFraming(request.headers.first(name: .contentType)), framing != .array {
            return next.respond(to: request)
        }
        return VettedBody.collect(request, maxBytes: maxBytes, timeout: timeout).flatMap { next.respond(to: request) }
    }
}

/// Collecting a Vapor request body under a cap and a deadline.
enum VettedBody {
    /// Collects the body (Vapor keeps it on the request for the route); fails with 413 or 408.
    static func collect(_ request: Request, maxBytes: Int, timeout: Duration) -> EventLoopFuture<Void> {
        let loop = request.eventLoop
        if let collected = request.body.data {
            // Already read (by Vapor's test harness, or an earlier middleware): the cap still holds.
            guard collected.readableBytes <= maxBytes else {
                return loop.makeFailedFuture(
                    VettedProblem(
                        VettedError(code: .inputSizeLimitExceeded, message: "the body is \(collected.readableBytes) bytes, over the limit of \(maxBytes)")))
            }
            return loop.makeSucceededVoidFuture()
        }
        if let declared = request.headers.first(name: .contentLength).flatMap({ Int($0) }), declared > maxBytes {
            return loop.makeFailedFuture(
                VettedProblem(
                    VettedError(code: .inputSizeLimitExceeded, message: "the body is declared as \(declared) bytes, over the limit of \(maxBytes)")))
        }
        // The body or the deadline, whichever comes first; both on the request's event loop.
        let once = Once(loop.makePromise(of: Void.self))
        let timer = loop.scheduleTask(in: .nanoseconds(timeout.boundedNanoseconds)) {
            once.fail(VettedProblem(VettedError(code: .deadlineExceeded, message: "the body did not all arrive within \(timeout)")))
        }
        request.body.collect(max: maxBytes).whenComplete { result in
            timer.cancel()
            switch result {
            case .success: once.succeed()
            case .failure(let abort as any AbortError) where abort.status == .payloadTooLarge:
                once.fail(VettedProblem(VettedError(code: .inputSizeLimitExceeded, message: "the body is over \(maxBytes) bytes")))
            case .failure(let error as any AbortError): once.fail(error)
            case .failure(let error):
                // The body stream broke (a malformed chunk, a trailer over NIO's header limit):
                // the client's framing, answered 400, never a 500 that names nothing. NIO's
                // error names no input; it is logged for the operator, not sent.
                request.logger.debug("request body stream failed", metadata: ["error": "\(error)"])
                once.fail(VettedProblem(VettedError(code: .unreadableInput, message: "the body could not be read: its framing is malformed")))
            }
        }
        return once.future
    }

    /// Completes a promise once, from whichever of the body and the timer comes first.
    ///
    /// `@unchecked Sendable`: both callers run on the request's event loop (the body's
    /// future completes there and the timer is scheduled there), one after the other,
    /// so `done` is never touched at once.
    private final class Once: @unchecked Sendable {
        private let promise: EventLoopPromise<Void>
        private var done = false
        init(_ promise: EventLoopPromise<Void>) { self.promise = promise }
        var future: EventLoopFuture<Void> { promise.futureResult }
        func succeed() {
            guard !done else { return }
            done = true
            promise.succeed()
        }
        func fail(_ error: any Error) {
            guard !done else { return }
            done = true
            promise.fail(error)
        }
    }
}
#endif
