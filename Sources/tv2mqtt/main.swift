print("tv2mqtt")
