import TVModel

/// The apps an Android TV opens by name out of the box (`androidtv.apps` replaces the list):
/// each name's app link, as Home Assistant's app-link guide lists them.
enum AndroidTVApps {
    static let defaults: [TVApp] = [
        TVApp(id: "https://www.netflix.com/title", name: "Netflix"),
        TVApp(id: "https://www.youtube.com", name: "YouTube"),
        TVApp(id: "https://app.primevideo.com", name: "Prime Video"),
        TVApp(id: "https://www.disneyplus.com", name: "Disney+"),
        TVApp(id: "market://launch?id=com.google.android.apps.tv.launcherx", name: "Home"),
    ]

    /// The packages of the default apps, to name the one in front.
    static let packages: [String: String] = [
        "com.netflix.ninja": "Netflix", "com.google.android.youtube.tv": "YouTube",
        "com.amazon.amazonvideo.livingroom": "Prime Video", "com.disney.disneyplus": "Disney+",
        "com.google.android.apps.tv.launcherx": "Home", "com.google.android.tvlauncher": "Home",
    ]
}
